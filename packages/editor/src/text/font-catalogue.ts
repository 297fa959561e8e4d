// The fonts Koma ships (OFL, from @fontsource packages), by the name a document stores. The spec's 'Komika' is a
// commercial face we cannot ship: it is drawn as Comic Neue, and a PSD names Comic Neue, the font that drew it.

export interface CatalogueFont {
  /** The name stored in a TEXT layer's fontName. */
  name: string;
  /** The CSS family the @fontsource package declares. */
  family: string;
  script: 'latin' | 'japanese';
  /** PostScript names, regular and bold, as Photoshop looks fonts up. */
  postScript: [string, string];
}

const latin = (name: string, family: string, ps: string, bold = ps): CatalogueFont => ({
  name,
  family,
  script: 'latin',
  postScript: [ps, bold],
});
const japanese = (family: string, ps: string, bold = ps): CatalogueFont => ({
  name: family,
  family,
  script: 'japanese',
  postScript: [ps, bold],
});

export const FONT_CATALOGUE: readonly CatalogueFont[] = [
  latin('Komika', 'Comic Neue', 'ComicNeue-Regular', 'ComicNeue-Bold'),
  latin('Bangers', 'Bangers', 'Bangers-Regular'),
  latin('Patrick Hand', 'Patrick Hand', 'PatrickHand-Regular'),
  latin('Kalam', 'Kalam', 'Kalam-Regular', 'Kalam-Bold'),
  latin('Permanent Marker', 'Permanent Marker', 'PermanentMarker-Regular'),
  latin('Luckiest Guy', 'Luckiest Guy', 'LuckiestGuy-Regular'),
  latin('Caveat', 'Caveat', 'Caveat-Regular', 'Caveat-Bold'),
  latin('Architects Daughter', 'Architects Daughter', 'ArchitectsDaughter-Regular'),
  japanese('Noto Sans JP', 'NotoSansJP-Regular', 'NotoSansJP-Bold'),
  japanese('Noto Serif JP', 'NotoSerifJP-Regular', 'NotoSerifJP-Bold'),
  japanese('M PLUS Rounded 1c', 'MPLUSRounded1c-Regular', 'MPLUSRounded1c-Bold'),
  japanese('Zen Maru Gothic', 'ZenMaruGothic-Regular', 'ZenMaruGothic-Bold'),
  japanese('Kosugi Maru', 'KosugiMaru-Regular'),
  japanese('Shippori Mincho', 'ShipporiMincho-Regular', 'ShipporiMincho-Bold'),
  japanese('Dela Gothic One', 'DelaGothicOne-Regular'),
  japanese('Mochiy Pop One', 'MochiyPopOne-Regular'),
  japanese('Yusei Magic', 'YuseiMagic-Regular'),
];

/** The catalogue font a stored name means ('Komika…' and 'Comic Neue' both mean the lettering face), if any. */
export function catalogueFont(fontName: string): CatalogueFont | undefined {
  const n = fontName.trim().toLowerCase();
  if (n === '' || n.startsWith('komika')) return FONT_CATALOGUE[0];
  return FONT_CATALOGUE.find((f) => f.name.toLowerCase() === n || f.family.toLowerCase() === n);
}

/**
 * The font that draws a layer: its own, except that vertical text in a Latin face is set in the Japanese gothic
 * (a Latin face has no vertical forms).
 */
export function drawnFont(data: { fontName: string; vertical: boolean }): CatalogueFont | undefined {
  const font = catalogueFont(data.fontName);
  if (data.vertical && font?.script !== 'japanese') return catalogueFont('Noto Sans JP');
  return font;
}
