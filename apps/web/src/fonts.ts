// Every font ships with the app (no CDN at run time): @fontsource puts the files into the Vite build.
import '@fontsource/bangers/400.css';
import '@fontsource/comic-neue/400.css';
import '@fontsource/comic-neue/700.css';
import '@fontsource/comic-neue/400-italic.css';
import '@fontsource/comic-neue/700-italic.css';
import '@fontsource/noto-sans-jp/400.css';
import '@fontsource/noto-sans-jp/700.css';

export { FONT_FAMILIES, fontStack } from './fontFamilies.ts';
