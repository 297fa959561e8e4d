import type { TextData } from '@koma/domain';
import { letteringScale, newBubbleBox, newBubbleData, scaledTextData } from '@koma/editor';
import type { PageSetup } from '@koma/domain';
import { i18n } from '../i18n/index.ts';

// A new bubble speaks the interface's language: in Japanese it is set vertically, in the Japanese gothic font, with
// Japanese sample text; in English it is the spec's horizontal "Enter Text" in the lettering font.
const en = { editor: { textSample: 'Enter Text' } };
const ja = { editor: { textSample: 'セリフを入力' } };

i18n.addResourceBundle('en', 'translation', en, true, false);
i18n.addResourceBundle('ja', 'translation', ja, true, false);

/** Whether the interface is in Japanese. */
const japanese = () => (i18n.resolvedLanguage ?? i18n.language).startsWith('ja');

/** The data of a bubble made now, in the interface's language. */
export function newBubbleForLocale(): TextData {
  return newBubbleData({ vertical: japanese(), text: i18n.t('editor.textSample') });
}

/** A new bubble for a page of `setup`, in the interface's language, and its box, both sized for the page. */
export function newBubbleForPage(setup: PageSetup): { data: TextData; size: { width: number; height: number } } {
  const scale = letteringScale(setup);
  const data = scaledTextData(newBubbleForLocale(), scale);
  return { data, size: newBubbleBox(data.vertical, scale) };
}
