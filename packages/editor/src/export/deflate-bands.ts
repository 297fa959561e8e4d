// A page image is compressed by the platform's zlib (CompressionStream 'deflate': the zlib format PDF's FlateDecode
// reads, in browsers and in Node 18+) while it is converted, a band of rows at a time in one small buffer used again
// for every band: the page's whole RGB copy and its whole compressed copy never exist, and the compressed bytes go
// on as the compressor hands them out (docs/how-it-works/chapter-memory.md). pako, which pdf-lib uses, needs both
// and then joins its output into a third buffer.

/**
 * Deflates the bands in order and passes each compressed piece to `emit` as it comes. A band may be the same buffer
 * refilled: the next one is asked for only once the compressor has taken the last (a write resolves when its chunk
 * has been compressed).
 */
export async function deflateBands(
  bands: Iterable<Uint8Array<ArrayBuffer>>,
  emit: (chunk: Uint8Array) => void,
): Promise<void> {
  const stream = new CompressionStream('deflate');
  const writer = stream.writable.getWriter();
  // Typed here: Node's declaration leaves the compressor's output as `any`.
  const reader: ReadableStreamDefaultReader<Uint8Array> = stream.readable.getReader();
  const reading = (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      emit(value);
    }
  })();
  try {
    for (const band of bands) await writer.write(band);
    await writer.close();
  } catch (error) {
    await reader.cancel(error).catch(() => undefined);
    await reading.catch(() => undefined);
    throw error;
  }
  await reading;
}
