import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { cbzEntries, comicInfoXml, pageFileName, zipFiles, type CbzPage } from '../../src/index.ts';

const page = (n: number): CbzPage => ({ bytes: new Uint8Array(n), width: 1700, height: 2400, extension: 'png' });

describe('CBZ for comic readers', () => {
  it('names pages so that they sort in reading order, however many there are', () => {
    expect([0, 1, 8, 9].map((i) => pageFileName(i, 10, 'png'))).toEqual(['001.png', '002.png', '009.png', '010.png']);
    expect(pageFileName(0, 1234, 'jpg')).toBe('0001.jpg');
    const names = Array.from({ length: 120 }, (_, i) => pageFileName(i, 120, 'png'));
    expect([...names].sort()).toEqual(names);
  });

  it('says YesAndRightToLeft for a right-to-left book and No for a left-to-right one', () => {
    const rtl = comicInfoXml({ title: 'Chapter 1', readingOrder: 'RIGHT_TO_LEFT' }, [page(3), page(4)]);
    expect(rtl).toContain('<Manga>YesAndRightToLeft</Manga>');
    expect(rtl).toContain('<PageCount>2</PageCount>');
    expect(rtl).toContain('<Page Image="1" Type="Story" ImageSize="4" ImageWidth="1700" ImageHeight="2400" />');
    const ltr = comicInfoXml({ title: 'Chapter 1', readingOrder: 'LEFT_TO_RIGHT' }, [page(3)]);
    expect(ltr).toContain('<Manga>No</Manga>');
  });

  it('escapes the title so that any name gives well-formed XML', () => {
    const xml = comicInfoXml({ title: `Tom & Jerry's <"Day">`, readingOrder: 'LEFT_TO_RIGHT', language: 'ja' }, []);
    expect(xml).toContain('<Title>Tom &amp; Jerry&apos;s &lt;&quot;Day&quot;&gt;</Title>');
    expect(xml).toContain('<LanguageISO>ja</LanguageISO>');
    expect(xml).not.toMatch(/<Title>[^<]*[&<>"'][^;]*<\/Title>/);
  });

  it('packs the pages in order with ComicInfo.xml beside them', () => {
    const zip = zipFiles(cbzEntries({ title: 'T', readingOrder: 'RIGHT_TO_LEFT' }, [page(1), page(2), page(3)]));
    const files = unzipSync(zip);
    expect(Object.keys(files)).toEqual(['001.png', '002.png', '003.png', 'ComicInfo.xml']);
    expect(files['002.png']!.length).toBe(2);
    expect(new TextDecoder().decode(files['ComicInfo.xml'])).toContain('<PageCount>3</PageCount>');
  });
});
