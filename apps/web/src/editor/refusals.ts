import type { LayerType } from '@koma/domain';
import type { ShortcutRefusal } from '@koma/editor';
import { i18n } from '../i18n/index.ts';
import './i18n-shell.ts';

/** Why a command cannot run now: the editor's own refusals and those of the generation keys (g, v, e). */
export type Refusal = ShortcutRefusal | 'prompt' | 'poseOrSketch' | 'poseImage' | 'variations' | 'processing';

/** The reason in the user's language, for a toast; `needsKind` names the kinds of layer the key acts on. */
export function refusalText(reason: Refusal, types: readonly LayerType[] = []): string {
  if (reason === 'needsKind') {
    const what = types.map((type) => i18n.t(`editor.refused.kinds.${type}`)).join(i18n.t('editor.refused.orKind'));
    return i18n.t('editor.refused.needsKind', { what });
  }
  return i18n.t(`editor.refused.${reason}`);
}
