;; One row of a blended layer over the composite, four pixels at a time (WebAssembly SIMD): the hot loop of
;; drawBlended (blend.ts), which copies the row's backdrop, source and clip base into this memory, calls $row, and
;; copies the backdrop back. Compiled to blend-wasm.ts by `npm run build:wasm -w @koma/editor`.
;;
;; Where source, clip base and backdrop are all opaque, each channel is the integer formula of blend.ts's
;; opaqueTable, byte for byte: R = B(b, s) on 0..255 rounded, then round((R·a + b·(255 − a)) / 255) with the
;; opacity a as a byte (the PSD stores layer opacity as one). Every other visible pixel goes back to JavaScript
;; ($soft), which draws it as its own loop does. A pixel whose source or clip alpha is 0 is left as it is.
(module
  (import "koma" "soft" (func $soft (param i32 i32 i32)))
  (memory (export "memory") 1)

  ;; n pixels of backdrop at d, source at s and clip base at k (k < 0: none, alpha 255 throughout); op is the
  ;; opacity byte, mode 0 multiply, 1 screen, 2 overlay, 3 darken, 4 lighten. Each segment is followed by 16 bytes
  ;; of room, so the last group of four is read and written whole, its lanes past n masked out (written back as
  ;; they were read). round(x / 255) for 0 <= x <= 65025 in a 16-bit lane is t = x + 128, (t + (t >> 8)) >> 8:
  ;; exact, as x / 255 is never halfway. It is written (div255 x) here and written out in place by the build
  ;; (scripts/wasm.ts), as V8 here does not inline one WebAssembly function into another, and a call per group
  ;; costs more than the arithmetic.
  (func (export "row") (param $d i32) (param $s i32) (param $k i32) (param $n i32) (param $mode i32) (param $op i32)
    (local $i i32) (local $o i32) (local $full i32)
    (local $a v128) (local $na v128) (local $alpha v128) (local $zero v128) (local $c128 v128) (local $c255 v128)
    (local $lanes v128) (local $visible v128) (local $opaque v128) (local $soft v128)
    (local $sv v128) (local $kv v128) (local $dv v128)
    (local $t v128) (local $q v128) (local $rl v128) (local $rh v128) (local $low v128) (local $nb v128) (local $nc v128)
    (local.set $a (i16x8.splat (local.get $op)))
    (local.set $na (i8x16.splat (i32.sub (i32.const 255) (local.get $op))))
    (local.set $alpha (v128.const i32x4 0xff000000 0xff000000 0xff000000 0xff000000))
    (local.set $zero (v128.const i32x4 0 0 0 0))
    (local.set $c128 (v128.const i16x8 128 128 128 128 128 128 128 128))
    (local.set $c255 (v128.const i16x8 255 255 255 255 255 255 255 255))
    (local.set $lanes (v128.const i32x4 0 1 2 3))
    (local.set $kv (v128.const i32x4 -1 -1 -1 -1))
    (block $done
      (loop $groups
        (br_if $done (i32.ge_s (local.get $i) (local.get $n)))
        (local.set $o (i32.shl (local.get $i) (i32.const 2)))
        (local.set $sv (v128.load align=1 (i32.add (local.get $s) (local.get $o))))
        (if (i32.ge_s (local.get $k) (i32.const 0))
          (then (local.set $kv (v128.load align=1 (i32.add (local.get $k) (local.get $o))))))
        (local.set $dv (v128.load align=1 (i32.add (local.get $d) (local.get $o))))
        ;; All four inside the row and opaque throughout (the body of a picture inside its panel): no masks.
        (local.set $full
          (i32.and
            (i32.le_s (i32.add (local.get $i) (i32.const 4)) (local.get $n))
            (i32x4.all_true
              (i32x4.eq
                (v128.and
                  (v128.and (v128.and (local.get $dv) (local.get $sv)) (local.get $kv))
                  (local.get $alpha))
                (local.get $alpha)))))
        (if (local.get $full)
          (then
            (local.set $opaque (v128.const i32x4 -1 -1 -1 -1))
            (local.set $soft (local.get $zero)))
          (else
            ;; Drawn where the lane is inside the row and the source and the clip base have some alpha (not the
            ;; corners of a turned picture, padding): blended here where all three are opaque, else in JavaScript.
            (local.set $visible
              (v128.andnot
                (i32x4.lt_s (local.get $lanes) (i32x4.splat (i32.sub (local.get $n) (local.get $i))))
                (v128.or
                  (i32x4.eq (v128.and (local.get $sv) (local.get $alpha)) (local.get $zero))
                  (i32x4.eq (v128.and (local.get $kv) (local.get $alpha)) (local.get $zero)))))
            (local.set $opaque
              (v128.and
                (local.get $visible)
                (i32x4.eq
                  (v128.and
                    (v128.and (v128.and (local.get $dv) (local.get $sv)) (local.get $kv))
                    (local.get $alpha))
                  (local.get $alpha))))
            (local.set $soft (v128.andnot (local.get $visible) (local.get $opaque)))))
        (if (v128.any_true (local.get $opaque))
          (then
            ;; r = B(b, c) rounded, for the low two pixels (eight 16-bit lanes) and the high two. Products of bytes
            ;; come straight from the byte vectors (extmul); darken and lighten need none.
            (block $mixed
              (block $lighten
                (block $darken
                  (block $overlay
                    (block $screen
                      (block $multiply
                        (br_table $multiply $screen $overlay $darken $lighten (local.get $mode)))
                      (local.set $rl (div255 (i16x8.extmul_low_i8x16_u (local.get $dv) (local.get $sv))))
                      (local.set $rh (div255 (i16x8.extmul_high_i8x16_u (local.get $dv) (local.get $sv))))
                      (br $mixed))
                    ;; b + c − bc/255.
                    (local.set $rl
                      (i16x8.sub
                        (i16x8.add (i16x8.extend_low_i8x16_u (local.get $dv)) (i16x8.extend_low_i8x16_u (local.get $sv)))
                        (div255 (i16x8.extmul_low_i8x16_u (local.get $dv) (local.get $sv)))))
                    (local.set $rh
                      (i16x8.sub
                        (i16x8.add (i16x8.extend_high_i8x16_u (local.get $dv)) (i16x8.extend_high_i8x16_u (local.get $sv)))
                        (div255 (i16x8.extmul_high_i8x16_u (local.get $dv) (local.get $sv)))))
                    (br $mixed))
                  ;; b <= 127: 2bc; else 1 − 2(1 − b)(1 − c), where 1 − x is the byte's complement. Each side wraps
                  ;; where it is not chosen.
                  (local.set $low (i8x16.le_u (local.get $dv) (v128.const i8x16 127 127 127 127 127 127 127 127 127 127 127 127 127 127 127 127)))
                  (local.set $nb (v128.not (local.get $dv)))
                  (local.set $nc (v128.not (local.get $sv)))
                  (local.set $rl
                    (v128.bitselect
                      (div255
                        (i16x8.shl (i16x8.extmul_low_i8x16_u (local.get $dv) (local.get $sv)) (i32.const 1)))
                      (i16x8.sub
                        (local.get $c255)
                        (div255
                          (i16x8.shl (i16x8.extmul_low_i8x16_u (local.get $nb) (local.get $nc)) (i32.const 1))))
                      (i16x8.extend_low_i8x16_s (local.get $low))))
                  (local.set $rh
                    (v128.bitselect
                      (div255
                        (i16x8.shl (i16x8.extmul_high_i8x16_u (local.get $dv) (local.get $sv)) (i32.const 1)))
                      (i16x8.sub
                        (local.get $c255)
                        (div255
                          (i16x8.shl (i16x8.extmul_high_i8x16_u (local.get $nb) (local.get $nc)) (i32.const 1))))
                      (i16x8.extend_high_i8x16_s (local.get $low))))
                  (br $mixed))
                (local.set $t (i8x16.min_u (local.get $dv) (local.get $sv)))
                (local.set $rl (i16x8.extend_low_i8x16_u (local.get $t)))
                (local.set $rh (i16x8.extend_high_i8x16_u (local.get $t)))
                (br $mixed))
              (local.set $t (i8x16.max_u (local.get $dv) (local.get $sv)))
              (local.set $rl (i16x8.extend_low_i8x16_u (local.get $t)))
              (local.set $rh (i16x8.extend_high_i8x16_u (local.get $t))))
            ;; round((r·a + b·(255 − a)) / 255), then one store of the lanes whose source, clip and backdrop are all
            ;; opaque, the backdrop's alpha (255) kept.
            (v128.store align=1
              (i32.add (local.get $d) (local.get $o))
              (v128.bitselect
                (v128.or
                  (i8x16.narrow_i16x8_u
                    (div255
                      (i16x8.add
                        (i16x8.mul (local.get $rl) (local.get $a))
                        (i16x8.extmul_low_i8x16_u (local.get $dv) (local.get $na))))
                    (div255
                      (i16x8.add
                        (i16x8.mul (local.get $rh) (local.get $a))
                        (i16x8.extmul_high_i8x16_u (local.get $dv) (local.get $na)))))
                  (local.get $alpha))
                (local.get $dv)
                (local.get $opaque)))))
        ;; Visible but not opaque throughout (an edge of soft alpha, a clear backdrop): to JavaScript.
        (if (v128.any_true (local.get $soft))
          (then
            (if (i32x4.extract_lane 0 (local.get $soft))
              (then (call $visit (local.get $d) (local.get $s) (local.get $k) (local.get $o))))
            (if (i32x4.extract_lane 1 (local.get $soft))
              (then (call $visit (local.get $d) (local.get $s) (local.get $k) (i32.add (local.get $o) (i32.const 4)))))
            (if (i32x4.extract_lane 2 (local.get $soft))
              (then (call $visit (local.get $d) (local.get $s) (local.get $k) (i32.add (local.get $o) (i32.const 8)))))
            (if (i32x4.extract_lane 3 (local.get $soft))
              (then
                (call $visit (local.get $d) (local.get $s) (local.get $k) (i32.add (local.get $o) (i32.const 12)))))))
        (local.set $i (i32.add (local.get $i) (i32.const 4)))
        (br $groups))))

  ;; The pixel at byte o of each segment to JavaScript ($soft), with its clip alpha.
  (func $visit (param $d i32) (param $s i32) (param $k i32) (param $o i32)
    (local $ka i32)
    (local.set $ka (i32.const 255))
    (if (i32.ge_s (local.get $k) (i32.const 0))
      (then (local.set $ka (i32.load8_u offset=3 (i32.add (local.get $k) (local.get $o))))))
    (call $soft (i32.add (local.get $d) (local.get $o)) (i32.add (local.get $s) (local.get $o)) (local.get $ka)))
)
