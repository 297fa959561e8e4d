// A CBZ is a zip of page images that comic readers (Komga, Kavita, YACReader, CDisplayEx, Tachiyomi/Mihon) open
// in file-name order, with an optional ComicInfo.xml in the Anansi ComicInfo 2.0 schema
// (github.com/anansi-project/comicinfo, schema/v2.0/ComicInfo.xsd) that tells them the title, the page count and
// whether to read right to left.
import type { ReadingOrder } from '@koma/domain';
import type { ZipEntry } from './zip.ts';

export const CBZ_MIME = 'application/vnd.comicbook+zip';

/** One page image of the book, in reading order. */
export interface CbzPage {
  bytes: Uint8Array;
  width: number;
  height: number;
  /** Extension without the dot: png or jpg. */
  extension: string;
}

export interface CbzInfo {
  title: string;
  readingOrder: ReadingOrder;
  /** BCP 47 / ISO 639 code of the book's language, when known. */
  language?: string;
}

/**
 * File names that sort in reading order in every reader: zero-padded to the width of the page count (at least 3
 * digits, so "010" never sorts before "002" and a 9-page book still reads 001…009).
 */
export function pageFileName(index: number, count: number, extension: string): string {
  const width = Math.max(3, String(count).length);
  return `${String(index + 1).padStart(width, '0')}.${extension}`;
}

const escapeXml = (text: string): string =>
  text.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);

/**
 * ComicInfo.xml for the pages. `Manga` is `YesAndRightToLeft` for a right-to-left book, which is what makes readers
 * turn pages the Japanese way; a left-to-right book says `No`. Every page is a `Story` page: Koma does not know
 * which page, if any, is a cover.
 */
export function comicInfoXml(info: CbzInfo, pages: readonly CbzPage[]): string {
  const manga = info.readingOrder === 'RIGHT_TO_LEFT' ? 'YesAndRightToLeft' : 'No';
  const pageRows = pages.map(
    (p, i) =>
      `    <Page Image="${i}" Type="Story" ImageSize="${p.bytes.length}" ImageWidth="${p.width}" ImageHeight="${p.height}" />`,
  );
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<ComicInfo xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">',
    `  <Title>${escapeXml(info.title)}</Title>`,
    `  <PageCount>${pages.length}</PageCount>`,
    ...(info.language ? [`  <LanguageISO>${escapeXml(info.language)}</LanguageISO>`] : []),
    `  <Manga>${manga}</Manga>`,
    '  <Pages>',
    ...pageRows,
    '  </Pages>',
    '</ComicInfo>',
    '',
  ].join('\n');
}

/** The entries of the CBZ: the pages in reading order, then ComicInfo.xml. */
export function cbzEntries(info: CbzInfo, pages: readonly CbzPage[]): ZipEntry[] {
  const entries: ZipEntry[] = pages.map((p, i) => ({
    name: pageFileName(i, pages.length, p.extension),
    bytes: p.bytes,
  }));
  entries.push({ name: 'ComicInfo.xml', bytes: new TextEncoder().encode(comicInfoXml(info, pages)) });
  return entries;
}
