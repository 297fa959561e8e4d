// Every font ships with the app (no CDN at run time): @fontsource puts the files into the Vite build. The lettering,
// display and Japanese gothic faces load up front; the rest of the catalogue loads the first time a layer or the
// font picker needs it. Each package's CSS splits the font by unicode-range, so only the subsets used download.
import '@fontsource/bangers/400.css';
import '@fontsource/comic-neue/400.css';
import '@fontsource/comic-neue/700.css';
import '@fontsource/comic-neue/400-italic.css';
import '@fontsource/comic-neue/700-italic.css';
import '@fontsource/noto-sans-jp/400.css';
import '@fontsource/noto-sans-jp/700.css';
import { catalogueFont } from '@koma/editor';

export { FONT_FAMILIES, fontStack } from './fontFamilies.ts';

const ON_DEMAND: Record<string, () => Promise<unknown>> = {
  'Patrick Hand': () => import('@fontsource/patrick-hand/400.css'),
  Kalam: () => import('@fontsource/kalam/400.css'),
  'Permanent Marker': () => import('@fontsource/permanent-marker/400.css'),
  'Luckiest Guy': () => import('@fontsource/luckiest-guy/400.css'),
  Caveat: () => import('@fontsource/caveat/400.css'),
  'Architects Daughter': () => import('@fontsource/architects-daughter/400.css'),
  'Noto Serif JP': () => import('@fontsource/noto-serif-jp/400.css'),
  'M PLUS Rounded 1c': () => import('@fontsource/m-plus-rounded-1c/400.css'),
  'Zen Maru Gothic': () => import('@fontsource/zen-maru-gothic/400.css'),
  'Kosugi Maru': () => import('@fontsource/kosugi-maru/400.css'),
  'Shippori Mincho': () => import('@fontsource/shippori-mincho/400.css'),
  'Dela Gothic One': () => import('@fontsource/dela-gothic-one/400.css'),
  'Mochiy Pop One': () => import('@fontsource/mochiy-pop-one/400.css'),
  'Yusei Magic': () => import('@fontsource/yusei-magic/400.css'),
};

/** Fired on window when an on-demand font has loaded, so the canvas redraws its text in it. */
export const FONT_LOADED_EVENT = 'koma:font-loaded';

const loading = new Map<string, Promise<void>>();

/** Loads a catalogue font's CSS and its glyphs for `sample`; resolves at once for fonts loaded up front. */
export function ensureFont(fontName: string, sample = 'Aaあ漢'): Promise<void> {
  const font = catalogueFont(fontName);
  const load = font ? ON_DEMAND[font.family] : undefined;
  if (!font || !load) return Promise.resolve();
  let pending = loading.get(font.family);
  if (!pending) {
    pending = load()
      .then(() => document.fonts.load(`30px '${font.family}'`, sample))
      .then(() => {
        window.dispatchEvent(new Event(FONT_LOADED_EVENT));
      })
      .catch((error: unknown) => console.warn('Font failed to load', font.family, error));
    loading.set(font.family, pending);
  }
  return pending;
}
