// Writes a pdf-lib document out in pieces as it is built (ISO 32000-1 §7.5: header, indirect objects, cross-reference
// table, trailer), so a large object such as a page image leaves memory once written instead of waiting for save(),
// which would hold every object and then the whole file beside them. Same byte layout as pdf-lib's PDFWriter.
import {
  PDFCrossRefSection,
  PDFHeader,
  PDFName,
  PDFNumber,
  PDFRawStream,
  PDFTrailer,
  PDFTrailerDict,
  type PDFContext,
  type PDFDict,
  type PDFObject,
  type PDFRef,
} from 'pdf-lib';

/** Receives the file's bytes in order; a chunk is never touched again once handed over. */
export type PdfSink = (chunk: Uint8Array) => void;

const ascii = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));
const STREAM = ascii('\nstream\n');
const ENDSTREAM_ENDOBJ = ascii('\nendstream\nendobj\n\n');
const objectOpen = (ref: PDFRef) => ascii(`${ref.objectNumber} ${ref.generationNumber} obj\n`);

export class PdfStreamSerializer {
  private offset = 0;
  /** Where each written object starts in the file. */
  private readonly offsets: { ref: PDFRef; offset: number }[] = [];

  constructor(
    private readonly context: PDFContext,
    private readonly sink: PdfSink,
  ) {
    const header = PDFHeader.forVersion(1, 7);
    const bytes = new Uint8Array(header.sizeInBytes() + 2);
    const n = header.copyBytesInto(bytes, 0);
    bytes[n] = bytes[n + 1] = 0x0a;
    this.emit(bytes);
  }

  /** Writes the object now and drops it from the document: it must be final (nothing may change it later). */
  writeNow(ref: PDFRef): void {
    const object = this.context.lookup(ref);
    if (!object) throw new Error(`PDF object ${ref.toString()} is not in the document`);
    this.write(ref, object);
    this.context.delete(ref);
  }

  /**
   * Writes a stream object whose contents are produced while it is written (a page image compressed band by band):
   * `produce` hands each piece to its `emit` as it comes and nothing holds the whole. Its length is not known when
   * the dictionary goes out, so `/Length` is the indirect object `length`, written right after (ISO 32000-1 §7.3.8.2
   * allows an indirect Length for this very case). `ref` and `length` are fresh refs (`context.nextRef()`), never
   * registered in the document.
   */
  async writeStreamed(
    ref: PDFRef,
    length: PDFRef,
    dict: PDFDict,
    produce: (emit: (chunk: Uint8Array) => void) => Promise<void>,
  ): Promise<void> {
    dict.set(PDFName.of('Length'), length);
    this.openStream(ref, dict);
    let bytes = 0;
    await produce((chunk) => {
      bytes += chunk.length;
      this.emit(chunk);
    });
    this.emit(ENDSTREAM_ENDOBJ);
    this.write(length, PDFNumber.of(bytes));
  }

  /** Writes every object still in the document, then the cross-reference table and the trailer. */
  finish(): void {
    for (const [ref, object] of this.context.enumerateIndirectObjects()) this.write(ref, object);
    const xref = PDFCrossRefSection.create();
    for (const { ref, offset } of [...this.offsets].sort((a, b) => a.ref.objectNumber - b.ref.objectNumber)) {
      xref.addEntry(ref, offset);
    }
    const xrefOffset = this.offset;
    const info = this.context.trailerInfo;
    const trailerDict = PDFTrailerDict.of(
      this.context.obj({
        Size: this.context.largestObjectNumber + 1,
        Root: info.Root,
        Encrypt: info.Encrypt,
        Info: info.Info,
        ID: info.ID,
      }),
    );
    const trailer = PDFTrailer.forLastCrossRefSectionOffset(xrefOffset);
    const bytes = new Uint8Array(xref.sizeInBytes() + 1 + trailerDict.sizeInBytes() + 2 + trailer.sizeInBytes());
    let at = xref.copyBytesInto(bytes, 0);
    bytes[at++] = 0x0a;
    at += trailerDict.copyBytesInto(bytes, at);
    bytes[at++] = 0x0a;
    bytes[at++] = 0x0a;
    trailer.copyBytesInto(bytes, at);
    this.emit(bytes);
  }

  /** A stream object's start, up to its contents: `N G obj`, its dictionary, `stream`. */
  private openStream(ref: PDFRef, dict: PDFDict): void {
    this.offsets.push({ ref, offset: this.offset });
    const open = objectOpen(ref);
    const head = new Uint8Array(open.length + dict.sizeInBytes() + STREAM.length);
    head.set(open, 0);
    const n = dict.copyBytesInto(head, open.length);
    head.set(STREAM, open.length + n);
    this.emit(head);
  }

  private write(ref: PDFRef, object: PDFObject): void {
    if (object instanceof PDFRawStream) {
      // A page image's compressed bytes (megabytes) go to the sink as they are, between their dictionary and their
      // end, not copied into one more buffer of the object's size: the same bytes as PDFStream.copyBytesInto.
      object.updateDict();
      this.openStream(ref, object.dict);
      this.emit(object.contents);
      this.emit(ENDSTREAM_ENDOBJ);
      return;
    }
    this.offsets.push({ ref, offset: this.offset });
    const open = objectOpen(ref);
    const close = ascii('\nendobj\n\n');
    const bytes = new Uint8Array(open.length + object.sizeInBytes() + close.length);
    bytes.set(open, 0);
    const n = object.copyBytesInto(bytes, open.length);
    bytes.set(close, open.length + n);
    this.emit(bytes);
  }

  private emit(bytes: Uint8Array): void {
    this.offset += bytes.length;
    this.sink(bytes);
  }
}
