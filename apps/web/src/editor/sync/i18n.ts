import { i18n } from '../../i18n/index.ts';

// Strings of saving, live updates, local copies and version history, merged into the app's i18next instance.
const en = {
  sync: {
    refused: {
      400: 'The server refused to save this version: {{detail}}. Your changes are kept on this device and are not sent again until you edit.',
      401: 'You are signed out, so nothing can be saved. Sign in again; your changes are kept on this device.',
      403: 'You may not save this workspace: {{detail}}. Your changes are kept on this device.',
      404: 'This workspace no longer exists on the server. Your changes are kept on this device.',
      413: 'This document is too large for the server to store. Your changes are kept on this device.',
      other: 'The server refused to save ({{status}}): {{detail}}. Your changes are kept on this device.',
    },
    localCopy: {
      title: 'Unsaved changes were found on this device',
      body: 'Changes made here on {{time}} never reached the server.',
      newer:
        'The workspace was saved elsewhere since. Restoring merges your changes into that version where they touch other layers; otherwise your copy goes on top (the other version stays in the history).',
      restore: 'Restore my changes',
      discard: 'Discard them',
      restored: 'Your unsaved changes are back and being saved.',
      merged: 'Your unsaved changes were merged into the newer version and are being saved.',
    },
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
    refused: {
      400: 'サーバーはこの版の保存を拒否しました: {{detail}}。変更はこの端末に保持され、次に編集するまで再送されません。',
      401: 'ログアウトしているため保存できません。もう一度ログインしてください。変更はこの端末に保持されています。',
      403: 'このワークスペースを保存する権限がありません: {{detail}}。変更はこの端末に保持されています。',
      404: 'このワークスペースはサーバー上に存在しません。変更はこの端末に保持されています。',
      413: 'ドキュメントが大きすぎてサーバーに保存できません。変更はこの端末に保持されています。',
      other: 'サーバーが保存を拒否しました ({{status}}): {{detail}}。変更はこの端末に保持されています。',
    },
    localCopy: {
      title: 'この端末に未保存の変更が見つかりました',
      body: '{{time}} にここで行った変更はサーバーに届いていません。',
      newer:
        'その後ワークスペースは別の場所で保存されています。復元すると、別のレイヤーへの変更はその版に統合されます。同じレイヤーを変更していた場合はあなたのコピーが上書き保存されます (もう一方の版は履歴に残ります)。',
      restore: '変更を復元',
      discard: '破棄',
      restored: '未保存の変更を復元し、保存しています。',
      merged: '未保存の変更を新しい版に統合し、保存しています。',
    },
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
