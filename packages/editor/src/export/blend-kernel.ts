// The WebAssembly SIMD row of drawBlended (blend.wat), instantiated once per thread on first use. Where WebAssembly
// cannot run (a Content-Security-Policy without 'wasm-unsafe-eval', an engine without SIMD) there is none, and
// drawBlended's JavaScript loop writes the same bytes.
import { BLEND_WASM_BASE64 } from './blend-wasm.ts';

/** Called back for a visible pixel that is not opaque throughout: byte offsets of backdrop and source, clip alpha. */
export type SoftPixel = (dp: number, sp: number, ka: number) => void;

export interface BlendKernel {
  /** Blends n pixels of the row at byte offsets d (backdrop), s (source), k (clip base, or −1 for none). */
  row(d: number, s: number, k: number, n: number, mode: number, opacity: number): void;
  /** The kernel's memory, at least `size` bytes long (views taken before a call to this may be stale). */
  memory(size: number): Uint8ClampedArray;
  /** Where $soft goes during the current draw. */
  soft: SoftPixel;
}

let kernel: BlendKernel | null | undefined;
let enabled = true;

/** The kernel, or null where WebAssembly SIMD cannot run here (or it was turned off). */
export function blendKernel(): BlendKernel | null {
  if (!enabled) return null;
  if (kernel === undefined) kernel = instantiate();
  return kernel;
}

/** Turns the kernel off or on: tests and the benchmark draw with both paths and compare them. */
export function useBlendKernel(on: boolean): void {
  enabled = on;
}

/** The part of the WebAssembly API used here (this package is typed without the DOM's lib, which declares it). */
interface Wasm {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
}
interface WasmMemory {
  buffer: ArrayBuffer;
  grow(pages: number): number;
}

function instantiate(): BlendKernel | null {
  const wasm = (globalThis as { WebAssembly?: Wasm }).WebAssembly;
  if (!wasm) return null;
  try {
    const bytes = Uint8Array.from(atob(BLEND_WASM_BASE64), (c) => c.charCodeAt(0));
    // Synchronous: the module is about 1 KB, under the size engines compile synchronously on any thread.
    const module = new wasm.Module(bytes);
    // $soft calls whatever the current draw set (the kernel below exists by the time it is called).
    const instance = new wasm.Instance(module, {
      koma: { soft: (dp: number, sp: number, ka: number) => made.soft(dp, sp, ka) },
    });
    const memory = instance.exports.memory as WasmMemory;
    let view = new Uint8ClampedArray(memory.buffer);
    const made: BlendKernel = {
      row: instance.exports.row as BlendKernel['row'],
      memory: (size) => {
        if (memory.buffer.byteLength < size) {
          memory.grow(Math.ceil((size - memory.buffer.byteLength) / 65536));
          view = new Uint8ClampedArray(memory.buffer);
        }
        return view;
      },
      soft: () => undefined,
    };
    return made;
  } catch {
    // No SIMD, or compiling WebAssembly is not allowed here: the JavaScript loop draws instead.
    return null;
  }
}
