// Subset fonts carry a tag: PDF 32000-1 §9.6.4 says the name of a font that holds only some of its glyphs begins
// with six uppercase letters and a plus sign (`ABCDEF+NotoSansJP`), the letters differing between different subsets
// of one font. pdf-lib embeds subsets but names them `Name-1234` (a random suffix), so `pdffonts` and preflight
// tools take them for whole fonts. The tag here is a hash of the embedded font program, which is a function of the
// glyph set: the same text in the same font gives the same tag, and another glyph set (almost surely) another one.
import { PDFArray, PDFDict, PDFName, PDFStream, type PDFDocument, type PDFFont } from 'pdf-lib';

/** cyrb53: a 53-bit string/bytes hash, enough for 26⁶ ≈ 3·10⁸ tags. */
function hash53(bytes: Uint8Array, seed = 0): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (const byte of bytes) {
    h1 = Math.imul(h1 ^ byte, 2654435761);
    h2 = Math.imul(h2 ^ byte, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** Six uppercase letters from the bytes of a subset font program. */
export function subsetTag(program: Uint8Array): string {
  let n = hash53(program);
  let tag = '';
  for (let i = 0; i < 6; i++) {
    tag += String.fromCharCode(65 + (n % 26));
    n = Math.floor(n / 26);
  }
  return tag;
}

/**
 * Embeds each subset font now (its glyph set is final once every page is drawn) and names it `TAG+PostScriptName`
 * in the Type0 font, its descendant CIDFont and the font descriptor. Call after the last page, before `save()`;
 * save() then finds the fonts embedded and leaves them.
 */
export async function tagSubsetFonts(pdf: PDFDocument, fonts: Iterable<PDFFont>): Promise<void> {
  for (const font of fonts) {
    await font.embed();
    const type0 = pdf.context.lookup(font.ref, PDFDict);
    const cid = type0.lookup(PDFName.of('DescendantFonts'), PDFArray).lookup(0, PDFDict);
    const descriptor = cid.lookup(PDFName.of('FontDescriptor'), PDFDict);
    const file = ['FontFile2', 'FontFile3', 'FontFile']
      .map((key) => descriptor.lookup(PDFName.of(key)))
      .find((value) => value instanceof PDFStream);
    if (!(file instanceof PDFStream)) continue;
    const name = PDFName.of(`${subsetTag(file.getContents())}+${font.name}`);
    type0.set(PDFName.of('BaseFont'), name);
    cid.set(PDFName.of('BaseFont'), name);
    descriptor.set(PDFName.of('FontName'), name);
  }
}
