import { ExportError, psdWriteError, writePsdBytes } from '@koma/editor';
import { afterEach, describe, expect, it } from 'vitest';
import { applyLocale } from '../i18n/index.ts';
import { exportStrings, exportText, reasonText, stageText } from './i18n.ts';
import { describeImport } from './run.ts';

function flatten(tree: object, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [k, v] of flatten(value as object, path)) out.set(k, v);
  }
  return out;
}

const placeholders = (text: string) => [...text.matchAll(/{{\s*(\w+)\s*}}/g)].map((m) => m[1]).sort();

afterEach(() => applyLocale('en'));

describe('export strings', () => {
  const en = flatten(exportStrings.en);
  const ja = flatten(exportStrings.ja);

  it('has every English string in Japanese, translated, with the same placeholders', () => {
    expect([...ja.keys()].sort()).toEqual([...en.keys()].sort());
    for (const [key, text] of en) {
      expect(ja.get(key), key).not.toBe(text);
      expect(placeholders(ja.get(key)!), key).toEqual(placeholders(text));
    }
  });

  it('words the worker’s stages, the import reasons and the import summary in the chosen language', async () => {
    const report = {
      added: 2,
      skipped: [
        { name: 'Levels', code: 'adjustment' as const, detail: 'curves', reason: 'adjustment layer (curves)…' },
      ],
      changed: [{ name: 'Glow', code: 'blendMode' as const, detail: 'screen', reason: 'blend mode “screen”…' }],
    };
    expect(stageText({ key: 'building', file: 'Page 1.psd' })).toBe('Building Page 1.psd');
    expect(describeImport(report)).toBe(
      '2 layers imported. Not imported: Levels (adjustment layer (curves) has no pixels of its own). ' +
        'Changed: Glow (blend mode “screen” imported as normal).',
    );

    await applyLocale('ja');
    expect(stageText({ key: 'building', file: 'Page 1.psd' })).toBe('Page 1.psd を組み立て中');
    expect(exportText('stage.onPage', { page: 2, pages: 3, stage: stageText({ key: 'compositing' }) })).toBe(
      'ページ 2/3：合成中',
    );
    expect(reasonText(report.changed[0]!)).toBe('描画モード「screen」は「通常」として読み込みました');
    expect(describeImport(report)).toBe(
      '2 枚のレイヤーを読み込みました。読み込まなかったもの：Levels（調整レイヤー（curves）で、それ自体の画素がありません）。' +
        '変更して読み込んだもの：Glow（描画モード「screen」は「通常」として読み込みました）。',
    );
  });

  it('words an import error from the worker by its code', async () => {
    await applyLocale('ja');
    expect(exportText('importError.depth', { depth: 16 })).toBe(
      'このドキュメントは 1 チャンネルあたり 16 ビットです。読み込めるのは 8 ビットのドキュメントだけです。',
    );
  });

  it('words the builder’s and writer’s refusals by their code, values included', async () => {
    const refusal = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        if (error instanceof ExportError && error.code) return error;
      }
      throw new Error('expected a coded ExportError');
    };
    const level = refusal(() => writePsdBytes({ width: 10, height: 10 }, { compression: 12 }));
    const tooLong = psdWriteError(new Error('String too long'));
    expect(exportText(`builderError.${level.code!}`, level.values)).toBe(level.message);
    expect(exportText(`builderError.${tooLong.code!}`, tooLong.values)).toBe(tooLong.message);
    await applyLocale('ja');
    expect(exportText(`builderError.${level.code!}`, level.values)).toBe(
      '圧縮レベルは 0 から 9 の整数で指定してください（12 は使えません）。',
    );
    expect(exportText(`builderError.${tooLong.code!}`, tooLong.values)).toBe(
      'ファイル内の名前か文字列が 255 文字を超えています。',
    );
  });
});
