import { i18n } from '../i18n/index.ts';

// Page-setup strings (issue 23), shared by the dashboard's new-comic choice and the editor's Page tab.
const en = {
  setup: {
    title: 'Page setup',
    ink: 'Print',
    COLOR: 'Colour, 350 dpi',
    MONO: 'Monochrome, 600 dpi',
    presets: {
      DEFAULT: 'Koma default: 1700 × 2400 px',
      MANGA_B5: 'Manga manuscript B5: 182 × 257 mm',
      TANKOBON_B6: 'Tankōbon B6: 128 × 182 mm',
      TANKOBON_A5: 'Tankōbon A5: 148 × 210 mm',
      US_COMIC: 'US comic book: 6.625 × 10.25 in',
      A4: 'A4: 210 × 297 mm',
      WEBTOON: 'Webtoon: 800 px wide, long page',
    },
    summary: '{{width}} × {{height}} px with bleed {{bleed}} px, safe inset {{safe}} px, {{dpi}} dpi',
    legend: 'Lines: red bleed, blue trim, dashed green safe area',
    bleedPanel: 'Extend to bleed',
  },
};

const ja: typeof en = {
  setup: {
    title: 'ページ設定',
    ink: '印刷',
    COLOR: 'カラー 350 dpi',
    MONO: 'モノクロ 600 dpi',
    presets: {
      DEFAULT: 'Koma 標準：1700 × 2400 px',
      MANGA_B5: 'マンガ原稿用紙 B5：182 × 257 mm',
      TANKOBON_B6: '単行本 B6：128 × 182 mm',
      TANKOBON_A5: '単行本 A5：148 × 210 mm',
      US_COMIC: 'アメコミ：6.625 × 10.25 in',
      A4: 'A4：210 × 297 mm',
      WEBTOON: 'ウェブトゥーン：幅 800 px の縦長ページ',
    },
    summary: '{{width}} × {{height}} px（塗り足し {{bleed}} px、安全領域 {{safe}} px、{{dpi}} dpi）',
    legend: '線：赤＝塗り足し、青＝仕上がり、緑の破線＝安全領域',
    bleedPanel: '塗り足しまで広げる',
  },
};

i18n.addResourceBundle('en', 'translation', en, true, false);
i18n.addResourceBundle('ja', 'translation', ja, true, false);

export const setupStrings = { en, ja };
