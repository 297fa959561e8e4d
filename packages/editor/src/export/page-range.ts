// Which pages a chapter export takes, as a printer's dialog asks for them: "1-3, 5, 8-" (pages 1 to 3, 5, and 8 to
// the end), 1-based as the page strip numbers them. Empty means every page.

/** Why a page range was refused, for the dialog to word (export i18n `pages.*`). */
export type PageRangeError =
  | { code: 'notRange'; item: string }
  | { code: 'beforeFirst'; item: string }
  | { code: 'pastLast'; page: number; last: number }
  | { code: 'backwards'; item: string };

/** The chosen pages as 0-based indexes in reading order, each once; or why the text is not a range of this chapter. */
export function parsePageRange(
  text: string,
  pageCount: number,
): { pages: number[]; error?: undefined } | { error: PageRangeError } {
  const all = Array.from({ length: pageCount }, (_, i) => i);
  if (text.trim() === '') return { pages: all };
  const chosen = new Set<number>();
  for (const raw of text.split(',')) {
    const item = raw.trim();
    if (item === '') continue;
    const match = /^(\d*)\s*(?:([-–])\s*(\d*))?$/.exec(item);
    const [from, dash, to] = [match?.[1] ?? '', match?.[2], match?.[3] ?? ''];
    if (!match || (from === '' && (!dash || to === ''))) return { error: { code: 'notRange', item } };
    const first = from === '' ? 1 : Number(from);
    const last = dash ? (to === '' ? pageCount : Number(to)) : first;
    if (first < 1 || last < 1) return { error: { code: 'beforeFirst', item } };
    if (first > last) return { error: { code: 'backwards', item } };
    if (last > pageCount) return { error: { code: 'pastLast', page: last, last: pageCount } };
    for (let p = first; p <= last; p++) chosen.add(p - 1);
  }
  if (chosen.size === 0) return { pages: all };
  return { pages: [...chosen].sort((a, b) => a - b) };
}
