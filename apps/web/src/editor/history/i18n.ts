import { i18n } from '../../i18n/index.ts';

// Strings of the History panel (issue 14 item 4), merged into the app's i18next instance.
const en = {
  history: {
    open: 'History',
    title: 'Version history',
    close: 'Close history',
    loading: 'Loading versions…',
    failed: 'Could not load the versions. Try again.',
    retry: 'Try again',
    empty: 'No saved versions yet.',
    older: 'Show older versions',
    current: 'Current',
    unknownDevice: 'Unknown device',
    tab: 'tab {{tab}}',
    preview: 'Preview',
    previewOf: 'Preview the version of {{time}}',
    thumbnail: 'The version of {{time}}',
    banner: 'Viewing the version of {{time}} (read-only)',
    restore: 'Restore',
    copy: 'Make a copy',
    closePreview: 'Close',
    restored: 'Restored the version of {{time}}. Undo brings back what was there before.',
    restoreFailed: 'Could not restore that version.',
    copyFailed: 'Could not make a copy of that version.',
    copyName: '{{name}} ({{time}})',
    previewFailed: 'Could not open that version.',
    retention: 'Every version of the last hour is kept, then one per hour for a week, then one per day for 90 days.',
  },
};

const ja: typeof en = {
  history: {
    open: '履歴',
    title: 'バージョン履歴',
    close: '履歴を閉じる',
    loading: 'バージョンを読み込んでいます…',
    failed: 'バージョンを読み込めませんでした。もう一度お試しください。',
    retry: '再試行',
    empty: '保存されたバージョンはまだありません。',
    older: 'さらに古いバージョンを表示',
    current: '現在',
    unknownDevice: '不明なデバイス',
    tab: 'タブ {{tab}}',
    preview: 'プレビュー',
    previewOf: '{{time}} のバージョンをプレビュー',
    thumbnail: '{{time}} のバージョン',
    banner: '{{time}} のバージョンを表示中（読み取り専用）',
    restore: '復元',
    copy: 'コピーを作成',
    closePreview: '閉じる',
    restored: '{{time}} のバージョンを復元しました。元に戻すと復元前の内容に戻ります。',
    restoreFailed: 'このバージョンを復元できませんでした。',
    copyFailed: 'このバージョンのコピーを作成できませんでした。',
    copyName: '{{name}}（{{time}}）',
    previewFailed: 'このバージョンを開けませんでした。',
    retention:
      '直近 1 時間のバージョンはすべて、その後 1 週間は 1 時間ごとに 1 つ、90 日までは 1 日ごとに 1 つ保存されます。',
  },
};

i18n.addResourceBundle('en', 'translation', en, true, false);
i18n.addResourceBundle('ja', 'translation', ja, true, false);

export const historyStrings = { en, ja };
