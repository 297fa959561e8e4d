// The streamed writer must lay a file out byte for byte as pdf-lib's own writer does (header, objects in order,
// cross-reference table, trailer), streams included: it hands a stream's contents to the sink as they are, between
// its dictionary and its end, instead of copying the object into one buffer.
import { PDFDocument, drawObject, popGraphicsState, pushGraphicsState, type PDFRawStream, type PDFRef } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { PdfStreamSerializer } from '../../src/export/pdf-stream.ts';

async function document(): Promise<{ pdf: PDFDocument; image: PDFRef }> {
  // No dates: save() would stamp the time it runs.
  const pdf = await PDFDocument.create({ updateMetadata: false });
  const page = pdf.addPage([200, 100]);
  const pixels = new Uint8Array(64 * 32 * 3).map((_, i) => (i * 37) % 251);
  const image = pdf.context.register(
    pdf.context.flateStream(pixels, {
      Type: 'XObject',
      Subtype: 'Image',
      Width: 64,
      Height: 32,
      BitsPerComponent: 8,
      ColorSpace: 'DeviceRGB',
    }),
  );
  page.pushOperators(pushGraphicsState(), drawObject(page.node.newXObject('Im', image)), popGraphicsState());
  page.drawText('Koma', { x: 10, y: 10, size: 12 });
  return { pdf, image };
}

const join = (chunks: Uint8Array[]) => {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
};

describe('PdfStreamSerializer', () => {
  it('writes the same bytes as pdf-lib’s save(), streams included', async () => {
    const { pdf, image } = await document();
    const contents = (pdf.context.lookup(image) as PDFRawStream).contents;
    const chunks: Uint8Array[] = [];
    const serializer = new PdfStreamSerializer(pdf.context, (c) => chunks.push(c));
    await pdf.flush();
    serializer.finish();
    const streamed = join(chunks);
    const saved = await pdf.save({ useObjectStreams: false });
    expect(streamed.length).toBe(saved.length);
    expect(Buffer.from(streamed).equals(Buffer.from(saved))).toBe(true);
    // The image's compressed bytes were handed over as they are, not copied.
    expect(chunks).toContain(contents);
  });
});
