import { i18n } from '../i18n/index.ts';

// Strings of the engine status page and the model tab's availability marks, under `engines.*`.
const en = {
  engines: {
    unavailable: 'Unavailable',
    title: 'Engine status',
    checkAgain: 'Check again',
    checking: 'Checking…',
    checkedAt: 'Checked {{time}}',
    forbidden: 'Only the accounts listed in ENGINE_ADMIN_EMAILS can see the engine status.',
    failed: 'The status could not be loaded: {{message}}',
    noServers: 'This engine needs no check.',
    reachable: 'Reachable',
    unreachable: 'Not usable',
    version: 'ComfyUI {{version}}',
    unknownVersion: 'version unknown',
    os: 'OS: {{os}}',
    queue: '{{n}} in queue',
    previews: 'Previews: {{method}}',
    previewsOff: 'Previews are off on this server: start ComfyUI with --preview-method auto',
    previewsOffModel: 'Previews are off on this server: the picture shows when it is done.',
    missingNodes: 'Missing nodes',
    missingFiles: 'Missing files',
    usedBy: 'for {{what}}',
    warnings: 'Warnings',
    allGood: 'Every node and file Koma needs is there.',
    back: 'Back to the dashboard',
  },
};

const ja = {
  engines: {
    unavailable: '利用不可',
    title: 'エンジンの状態',
    checkAgain: '再確認',
    checking: '確認中…',
    checkedAt: '{{time}} に確認',
    forbidden: 'エンジンの状態は ENGINE_ADMIN_EMAILS に登録されたアカウントだけが見られます。',
    failed: '状態を読み込めませんでした: {{message}}',
    noServers: 'このエンジンには確認項目がありません。',
    reachable: '接続可能',
    unreachable: '使用不可',
    version: 'ComfyUI {{version}}',
    unknownVersion: 'バージョン不明',
    os: 'OS: {{os}}',
    queue: 'キュー {{n}} 件',
    previews: 'プレビュー: {{method}}',
    previewsOff: 'このサーバーではプレビューがオフです。ComfyUI を --preview-method auto で起動してください',
    previewsOffModel: 'このサーバーではプレビューがオフです。完成すると画像が表示されます。',
    missingNodes: '不足しているノード',
    missingFiles: '不足しているファイル',
    usedBy: '{{what}} で使用',
    warnings: '注意',
    allGood: 'Koma に必要なノードとファイルはすべて揃っています。',
    back: 'ダッシュボードに戻る',
  },
};

i18n.addResourceBundle('en', 'translation', en, true, false);
i18n.addResourceBundle('ja', 'translation', ja, true, false);

export const engineStrings = { en, ja };
