import { i18n } from '../../i18n/index.ts';

// Strings of saving, live updates, local copies and version history, merged into the app's i18next instance.
const en = {
  sync: {
    repaired: {
      intro: 'This document was repaired when it opened:',
      STROKE_POINT_LIST: '{{count}} strokes stored as point lists were converted',
      MIRRORED_ROOT: 'a copy of a page kept at the workspace root was removed (the page keeps its layers)',
      DUPLICATE_ID: '{{count}} layers that shared an id were given their own',
      DUPLICATE_PAGE: '{{count}} pages that shared an id were given their own',
      TEXT_CHARACTERS: '{{count}} texts held invisible or broken characters, now removed',
      LAST_PAGE: 'the page to open no longer existed; the last page opens instead',
    },
  },
};

const ja: typeof en = {
  sync: {
    repaired: {
      intro: 'このドキュメントは開くときに修復されました:',
      STROKE_POINT_LIST: '点のリストで保存された {{count}} 本のストロークを変換しました',
      MIRRORED_ROOT: 'ワークスペースのルートに残っていたページのコピーを削除しました (レイヤーはページに残ります)',
      DUPLICATE_ID: 'ID が重複していた {{count}} 個のレイヤーに新しい ID を付けました',
      DUPLICATE_PAGE: 'ID が重複していた {{count}} ページに新しい ID を付けました',
      TEXT_CHARACTERS: '{{count}} 個のテキストから見えない文字や壊れた文字を取り除きました',
      LAST_PAGE: '開くページが存在しなかったため、最後のページを開きます',
    },
  },
};

i18n.addResourceBundle('en', 'translation', en, true, false);
i18n.addResourceBundle('ja', 'translation', ja, true, false);

export const syncStrings = { en, ja };
