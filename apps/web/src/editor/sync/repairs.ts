import type { DocumentRepair } from '@koma/domain';
import { i18n } from '../../i18n/index.ts';
import './i18n.ts';

/** One sentence per kind of repair, in the user's language, for the notice shown once when a document opens. */
export function describeRepairs(repairs: readonly DocumentRepair[]): string {
  const lines = repairs.map((r) => i18n.t(`sync.repaired.${r.code}`, { count: r.count }));
  return [i18n.t('sync.repaired.intro'), ...lines].join(' ');
}
