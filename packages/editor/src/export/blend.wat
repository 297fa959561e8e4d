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
  ;; they were read). The formula is written out in the loop, as V8 here does not inline one WebAssembly function
  ;; into another, and a call per group costs more than the arithmetic. round(x / 255) for 0 <= x <= 65025 in a
  ;; 16-bit lane is t = x + 128, (t + (t >> 8)) >> 8: exact, as x / 255 is never halfway.
  (func (export "row") (param $d i32) (param $s i32) (param $k i32) (param $n i32) (param $mode i32) (param $op i32)
    (local $i i32) (local $o i32) (local $h i32)
    (local $a v128) (local $na v128) (local $alpha v128) (local $zero v128) (local $c128 v128) (local $c255 v128)
    (local $full i32) (local $lanes v128) (local $visible v128) (local $opaque v128) (local $soft v128)
    (local $sv v128) (local $kv v128) (local $dv v128) (local $dh v128) (local $sh v128)
    (local $b v128) (local $c v128) (local $t v128) (local $r v128) (local $lo v128) (local $out0 v128) (local $out1 v128)
    (local.set $a (i16x8.splat (local.get $op)))
    (local.set $na (i16x8.splat (i32.sub (i32.const 255) (local.get $op))))
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
            ;; Two pixels (eight 16-bit lanes) at a time, low half then high half, then one store of the
            ;; lanes whose source, clip and backdrop are all opaque.
            (local.set $dh (local.get $dv))
            (local.set $sh (local.get $sv))
            (local.set $h (i32.const 0))
            (loop $halves
              (local.set $b (i16x8.extend_low_i8x16_u (local.get $dh)))
              (local.set $c (i16x8.extend_low_i8x16_u (local.get $sh)))
              ;; r = B(b, c) rounded.
              (if (i32.le_u (local.get $mode) (i32.const 1))
                (then
                  (local.set $t (i16x8.add (i16x8.mul (local.get $b) (local.get $c)) (local.get $c128)))
                  (local.set $r
                    (i16x8.shr_u (i16x8.add (local.get $t) (i16x8.shr_u (local.get $t) (i32.const 8))) (i32.const 8)))
                  (if (local.get $mode)
                    (then
                      (local.set $r
                        (i16x8.sub (i16x8.add (local.get $b) (local.get $c)) (local.get $r)))))))
              (if (i32.eq (local.get $mode) (i32.const 2))
                (then
                  ;; b <= 127: 2bc; else 1 − 2(1 − b)(1 − c). Each side wraps where it is not chosen.
                  (local.set $t
                    (i16x8.add
                      (i16x8.mul (i16x8.shl (local.get $b) (i32.const 1)) (local.get $c))
                      (local.get $c128)))
                  (local.set $lo
                    (i16x8.shr_u (i16x8.add (local.get $t) (i16x8.shr_u (local.get $t) (i32.const 8))) (i32.const 8)))
                  (local.set $t
                    (i16x8.add
                      (i16x8.mul
                        (i16x8.shl (i16x8.sub (local.get $c255) (local.get $b)) (i32.const 1))
                        (i16x8.sub (local.get $c255) (local.get $c)))
                      (local.get $c128)))
                  (local.set $r
                    (v128.bitselect
                      (local.get $lo)
                      (i16x8.sub
                        (local.get $c255)
                        (i16x8.shr_u
                          (i16x8.add (local.get $t) (i16x8.shr_u (local.get $t) (i32.const 8)))
                          (i32.const 8)))
                      (i16x8.le_u (local.get $b) (v128.const i16x8 127 127 127 127 127 127 127 127))))))
              (if (i32.eq (local.get $mode) (i32.const 3))
                (then (local.set $r (i16x8.min_u (local.get $b) (local.get $c)))))
              (if (i32.eq (local.get $mode) (i32.const 4))
                (then (local.set $r (i16x8.max_u (local.get $b) (local.get $c)))))
              ;; round((r·a + b·(255 − a)) / 255); the low half's result moves to $out1 when the high half's comes.
              (local.set $t
                (i16x8.add
                  (i16x8.add (i16x8.mul (local.get $r) (local.get $a)) (i16x8.mul (local.get $b) (local.get $na)))
                  (local.get $c128)))
              (local.set $out1 (local.get $out0))
              (local.set $out0
                (i16x8.shr_u (i16x8.add (local.get $t) (i16x8.shr_u (local.get $t) (i32.const 8))) (i32.const 8)))
              ;; The high half, moved down.
              (local.set $dh (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $dh) (local.get $dh)))
              (local.set $sh (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $sh) (local.get $sh)))
              (local.set $h (i32.add (local.get $h) (i32.const 1)))
              (br_if $halves (i32.lt_u (local.get $h) (i32.const 2))))
            ;; The backdrop's alpha (255) kept; every other lane as it was.
            (v128.store align=1
              (i32.add (local.get $d) (local.get $o))
              (v128.bitselect
                (v128.or (i8x16.narrow_i16x8_u (local.get $out1) (local.get $out0)) (local.get $alpha))
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
