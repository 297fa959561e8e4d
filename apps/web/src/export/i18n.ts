import type { ImportErrorCode, ImportNote, ImportNoteCode } from '@koma/editor';
import { i18n } from '../i18n/index.ts';

// The export dialog's strings, merged into the app's i18next instance under `export.*`: the dialog, the progress
// stages (the worker sends a stage key, the main thread words it), the errors of this folder and of PSD import,
// and the reasons a PSD layer was skipped or changed.
const en = {
  export: {
    dialog: {
      open: 'Export',
      title: 'Export and import',
      pngPage: 'PNG, full resolution (this page)',
      pngCanvas: 'PNG, full resolution (everything on the canvas)',
      psdPage: 'PSD with layers (this page, {{width}}×{{height}})',
      psd: 'PSD with layers',
      psdPages: 'Every page: one PSD per page in a zip',
      pngPages: 'Every page: PNG images in a zip',
      cbz: 'Every page: CBZ for comic readers (with ComicInfo.xml)',
      webtoon: 'Webtoon: every page stacked 800 px wide, cut into slices in a zip',
      pdf: 'Every page: one PDF for print or reading ({{dpi}} dpi)',
      cropMarks: 'Crop marks',
      tone: 'Ink',
      toneColour: 'Colour',
      toneGrey: 'Greyscale',
      toneScreentone: 'Black and white with screentone dots (one-ink press)',
      lpi: 'Lines per inch',
      angle: 'Angle (°)',
      screenInvalid: 'Lines per inch must be from {{minLpi}} to {{maxLpi}} and the angle from 0 to 90°.',
      cancel: 'Cancel',
      cancelled: 'Export cancelled; nothing was downloaded.',
      sliceHeight: 'Slice height (px)',
      sliceType: 'Slice files',
      sliceHeightInvalid: 'Slice height must be a whole number from {{min}} to {{max}} px.',
      pages: 'Pages',
      pagesHint: 'All, or e.g. 1-3, 5, 8-',
      pagesNotRange: 'Pages: “{{item}}” is not a page or a range such as 2-5.',
      pagesBeforeFirst: 'Pages: “{{item}}”: pages start at 1.',
      pagesPastLast: 'Pages: page {{page}} is past the last page ({{last}}).',
      pagesBackwards: 'Pages: “{{item}}” runs backwards; write the lower page first.',
      forcedCuts_one: '{{count}} cut had to go through a panel or bubble taller than the slice height.',
      forcedCuts_other: '{{count}} cuts had to go through a panel or bubble taller than the slice height.',
      lowDpi_one: 'Below 300 dpi in print (will look soft): {{list}}.',
      lowDpi_other: '{{count}} images below 300 dpi in print (will look soft): {{list}}.',
      lowDpiItem: 'page {{page}} {{name}} at {{dpi}} dpi',
      compression: 'Compression',
      noCompression: '0 (none: opens everywhere)',
      zipLevel: '{{level}} (zip)',
      watermark: 'Free plan: exports carry a watermark.',
      start: 'Export',
      import: 'Import PSD…',
      importIntoCurrent: 'Import a Koma PSD into this page (not a new page)',
      close: 'Close',
      imported_one: '{{count}} layer imported.',
      imported_other: '{{count}} layers imported.',
      notImported: 'Not imported:',
      changed: 'Imported with changes:',
      note: '{{name}}: {{reason}}',
    },
    stage: {
      starting: 'Starting',
      loadingImages: 'Loading images',
      loadingImagesFor: 'Loading images ({{seconds}} s)',
      drawingPage: 'Drawing page {{page}} of {{pages}}',
      onPage: 'Page {{page}} of {{pages}}: {{stage}}',
      compositing: 'Compositing',
      encodingPng: 'Encoding PNG',
      building: 'Building {{file}}',
      writing: 'Writing {{file}}',
      packingZip: 'Packing the zip',
      slicing: 'Cutting slice {{file}}',
      writingPdf: 'Writing the PDF',
      toning: 'Screening page {{file}}',
      reading: 'Reading {{file}}',
      uploading: 'Uploading {{name}}',
      imported: 'Imported',
    },
    error: {
      workerStopped: 'The export worker stopped: {{message}}',
      failed: 'Export failed: {{message}}',
      noPngEncoder: 'This browser cannot encode PNG images.',
      pngEncodeFailed: 'This browser could not encode a PNG image.',
      noWorkerEncoder: 'This browser cannot encode images in a worker.',
      noPixelsBack: 'This browser cannot read pixels back from a canvas.',
      unexpectedReply: 'The import worker answered with something else.',
      imagesMissing: 'These images did not load, so nothing was exported: {{names}}.',
      notPsdFile: '{{file}} is not a PSD or PSB file.',
    },
    builderError: {
      compressionLevel: 'The compression level must be a whole number from 0 to 9, not {{level}}.',
      pageSize: 'The page size {{width}}×{{height}} cannot be exported.',
      layerPixelsMissing: 'The pixels of layer “{{name}}” are missing.',
      layerPixelsSize: 'The pixels of layer “{{name}}” are {{got}}, expected {{expected}}.',
      noValidSize: 'The page has no valid size to export.',
      needsPsb: 'The page is larger than 30000×30000 pixels: it must be saved as a PSB file.',
      bitDepth: 'Only 8 bits per channel can be written to a PSD file.',
      compositeSize: 'The flattened picture does not match the page size; nothing was written.',
      pixelsAndChildren: 'A layer cannot hold both pixels and other layers.',
      textTooLong: 'A name or text in the file is longer than 255 characters.',
      placedLayerGuid: 'A placed layer needs a GUID id.',
      layerBounds: 'A layer’s pixels do not match its bounds.',
      writeFailed: 'The PSD file could not be written: {{message}}',
    },
    importError: {
      tooShort: 'This file is too short to be a PSD.',
      notPsd: 'This is not a PSD or PSB file.',
      version: 'PSD version {{version}} is not supported.',
      depth: 'This document has {{depth}} bits per channel; only 8-bit documents can be imported.',
      colorMode: 'This document is in colour mode {{mode}}; only RGB and grayscale can be imported.',
      unreadable: 'This PSD file could not be read: {{message}}',
      komaData: 'The Koma data in this PSD is damaged ({{detail}}); nothing was imported.',
    },
    reason: {
      adjustment: 'adjustment layer ({{detail}}) has no pixels of its own',
      smartObject: 'smart object without rasterised pixels',
      shape: 'shape layer without rasterised pixels',
      empty: 'empty layer',
      not8bit: 'pixels are not 8 bits per channel',
      blendMode: 'blend mode “{{detail}}” imported as normal',
      clipping: 'clipping mask not kept: the layer is whole',
      text: 'text imported as a picture; it is no longer editable',
      effects: 'layer effects (shadows, strokes…) not imported',
      uploadFailed: 'upload failed: {{detail}}',
      watermark: 'the watermark is not art',
      repainted: 'painted over in another tool: imported as pixels',
    },
    // Sentences that follow the count: English puts a space before each, Japanese does not.
    summary: {
      notImported: ' Not imported: {{list}}.',
      changed: ' Changed: {{list}}.',
      item: '{{name}} ({{reason}})',
      separator: '; ',
    },
  },
};

const ja: typeof en = {
  export: {
    dialog: {
      open: '書き出し',
      title: '書き出しと読み込み',
      pngPage: 'PNG（このページ、フル解像度）',
      pngCanvas: 'PNG（キャンバス全体、フル解像度）',
      psdPage: 'レイヤー付き PSD（このページ、{{width}}×{{height}}）',
      psd: 'レイヤー付き PSD',
      psdPages: '全ページ：ページごとの PSD を zip にまとめる',
      pngPages: '全ページ：PNG 画像を zip にまとめる',
      cbz: '全ページ：コミックリーダー用 CBZ（ComicInfo.xml 付き）',
      webtoon: '縦読み：全ページを幅 800 px で縦につなぎ、分割して zip にまとめる',
      pdf: '全ページ：印刷・閲覧用の PDF 1 ファイル（{{dpi}} dpi）',
      cropMarks: 'トンボ',
      tone: '色',
      toneColour: 'カラー',
      toneGrey: 'グレースケール',
      toneScreentone: 'スクリーントーンの網点で白黒（1 色刷り）',
      lpi: '線数（lpi）',
      angle: '角度（°）',
      screenInvalid: '線数は {{minLpi}}〜{{maxLpi}}、角度は 0〜90° で指定してください。',
      cancel: 'キャンセル',
      cancelled: '書き出しを中止しました。ダウンロードはされていません。',
      sliceHeight: '分割の高さ（px）',
      sliceType: '分割ファイルの形式',
      sliceHeightInvalid: '分割の高さは {{min}}〜{{max}} px の整数で指定してください。',
      pages: 'ページ',
      pagesHint: 'すべて、または 1-3, 5, 8- のように',
      pagesNotRange: 'ページ:「{{item}}」はページ番号でも 2-5 のような範囲でもありません。',
      pagesBeforeFirst: 'ページ:「{{item}}」— ページは 1 から始まります。',
      pagesPastLast: 'ページ:{{page}} ページは最後のページ({{last}})より後です。',
      pagesBackwards: 'ページ:「{{item}}」は逆順です。小さいページを先に書いてください。',
      forcedCuts_one: '分割の高さより大きいコマや吹き出しがあり、{{count}} か所でそれらを切りました。',
      forcedCuts_other: '分割の高さより大きいコマや吹き出しがあり、{{count}} か所でそれらを切りました。',
      lowDpi_one: '印刷で 300 dpi に満たない画像があります（ぼやけて見えます）：{{list}}。',
      lowDpi_other: '印刷で 300 dpi に満たない画像が {{count}} 枚あります（ぼやけて見えます）：{{list}}。',
      lowDpiItem: '{{page}}ページ {{name}}（{{dpi}} dpi）',
      compression: '圧縮',
      noCompression: '0（なし：どのソフトでも開けます）',
      zipLevel: '{{level}}（zip）',
      watermark: '無料プラン：書き出しに透かしが入ります。',
      start: '書き出す',
      import: 'PSD を読み込む…',
      importIntoCurrent: 'Koma の PSD を新しいページではなくこのページに読み込む',
      close: '閉じる',
      imported_one: '{{count}} 枚のレイヤーを読み込みました。',
      imported_other: '{{count}} 枚のレイヤーを読み込みました。',
      notImported: '読み込まなかったもの：',
      changed: '変更して読み込んだもの：',
      note: '{{name}}：{{reason}}',
    },
    stage: {
      starting: '準備中',
      loadingImages: '画像を読み込み中',
      loadingImagesFor: '画像を読み込み中（{{seconds}} 秒）',
      drawingPage: 'ページ {{page}}/{{pages}} を描画中',
      onPage: 'ページ {{page}}/{{pages}}：{{stage}}',
      compositing: '合成中',
      encodingPng: 'PNG に変換中',
      building: '{{file}} を組み立て中',
      writing: '{{file}} を書き込み中',
      packingZip: 'zip にまとめています',
      slicing: '{{file}} を切り出し中',
      writingPdf: 'PDF を書き出し中',
      toning: '{{file}} ページ目を網点化中',
      reading: '{{file}} を読み込み中',
      uploading: '{{name}} をアップロード中',
      imported: '読み込み完了',
    },
    error: {
      workerStopped: '書き出し用のワーカーが止まりました：{{message}}',
      failed: '書き出しに失敗しました：{{message}}',
      noPngEncoder: 'このブラウザーでは PNG 画像を作れません。',
      pngEncodeFailed: 'このブラウザーで PNG 画像を作れませんでした。',
      noWorkerEncoder: 'このブラウザーではワーカー内で画像を作れません。',
      noPixelsBack: 'このブラウザーではキャンバスから画素を読み出せません。',
      unexpectedReply: '読み込み用のワーカーから想定外の応答がありました。',
      imagesMissing: '次の画像が読み込めなかったため、何も書き出していません：{{names}}。',
      notPsdFile: '{{file}} は PSD・PSB ファイルではありません。',
    },
    builderError: {
      compressionLevel: '圧縮レベルは 0 から 9 の整数で指定してください（{{level}} は使えません）。',
      pageSize: 'ページサイズ {{width}}×{{height}} は書き出せません。',
      layerPixelsMissing: 'レイヤー「{{name}}」の画素がありません。',
      layerPixelsSize: 'レイヤー「{{name}}」の画素が {{got}} です（{{expected}} のはずです）。',
      noValidSize: 'ページに書き出せる大きさがありません。',
      needsPsb: 'ページが 30000×30000 ピクセルを超えています。PSB ファイルとして保存する必要があります。',
      bitDepth: 'PSD ファイルに書けるのは 1 チャンネルあたり 8 ビットだけです。',
      compositeSize: '統合した画像がページの大きさと合わないため、何も書き出していません。',
      pixelsAndChildren: '1 つのレイヤーに画素と子レイヤーの両方は持たせられません。',
      textTooLong: 'ファイル内の名前か文字列が 255 文字を超えています。',
      placedLayerGuid: '配置レイヤーには GUID の ID が必要です。',
      layerBounds: 'レイヤーの画素がその範囲と合いません。',
      writeFailed: 'PSD ファイルを書き出せませんでした：{{message}}',
    },
    importError: {
      tooShort: 'このファイルは短すぎて PSD ではありません。',
      notPsd: 'これは PSD・PSB ファイルではありません。',
      version: 'PSD バージョン {{version}} には対応していません。',
      depth:
        'このドキュメントは 1 チャンネルあたり {{depth}} ビットです。読み込めるのは 8 ビットのドキュメントだけです。',
      colorMode: 'このドキュメントのカラーモードは {{mode}} です。読み込めるのは RGB とグレースケールだけです。',
      unreadable: 'この PSD ファイルを読み取れませんでした：{{message}}',
      komaData: 'この PSD の Koma データが壊れています（{{detail}}）。何も読み込んでいません。',
    },
    reason: {
      adjustment: '調整レイヤー（{{detail}}）で、それ自体の画素がありません',
      smartObject: 'ラスタライズした画素のないスマートオブジェクト',
      shape: 'ラスタライズした画素のないシェイプレイヤー',
      empty: '空のレイヤー',
      not8bit: '画素が 1 チャンネルあたり 8 ビットではありません',
      blendMode: '描画モード「{{detail}}」は「通常」として読み込みました',
      clipping: 'クリッピングマスクは保たれず、レイヤー全体を読み込みました',
      text: 'テキストは画像として読み込みました（編集はできません）',
      effects: 'レイヤー効果（影・境界線など）は読み込んでいません',
      uploadFailed: 'アップロードに失敗しました：{{detail}}',
      watermark: 'ウォーターマークは作品ではありません',
      repainted: '別のツールで描き加えられていたため、画像として読み込みました',
    },
    summary: {
      notImported: '読み込まなかったもの：{{list}}。',
      changed: '変更して読み込んだもの：{{list}}。',
      item: '{{name}}（{{reason}}）',
      separator: '、',
    },
  },
};

i18n.addResourceBundle('en', 'translation', en, true, false);
i18n.addResourceBundle('ja', 'translation', ja, true, false);

export const exportStrings = { en, ja };

/** The keys below `export.`, e.g. `stage.compositing`; plural keys by their base name (`dialog.imported`). */
type Leaves<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends string
    ? `${Prefix}${K extends `${infer Base}_${'one' | 'other'}` ? Base : K}`
    : Leaves<T[K], `${Prefix}${K}.`>;
}[keyof T & string];
export type ExportKey = Leaves<(typeof en)['export']>;

/** An export string in the current language. */
export function exportText(key: ExportKey, values?: Record<string, string | number>): string {
  return i18n.t(`export.${key}`, values);
}

/** A progress stage the worker reports: its key under `export.stage` and the file it is working on. */
export interface StageText {
  key: 'compositing' | 'encodingPng' | 'building' | 'writing' | 'packingZip' | 'slicing' | 'writingPdf' | 'toning';
  file?: string;
}

export function stageText(stage: StageText): string {
  return exportText(`stage.${stage.key}`, stage.file === undefined ? undefined : { file: stage.file });
}

/** Why a PSD layer was skipped or changed, in the current language. */
export function reasonText(note: ImportNote): string {
  const key: `reason.${ImportNoteCode}` = `reason.${note.code}`;
  return exportText(key, { detail: note.detail ?? '' });
}

/** An import failure from the worker, worded from its code; the English message when it has none. */
export function importErrorText(code: ImportErrorCode, values: Record<string, string | number>): string {
  return exportText(`importError.${code}`, values);
}
