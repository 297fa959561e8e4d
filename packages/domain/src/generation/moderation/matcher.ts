import { canonicalTerm, type Tokens } from './tokenize.ts';

/** A word-list match: the characters it covers in the prompt and every list the term belongs to. */
export interface TermMatch<L extends string = string> {
  readonly start: number;
  readonly end: number;
  readonly tokenStart: number;
  /** Exclusive. */
  readonly tokenEnd: number;
  /** The list term, in canonical spelling with single spaces. */
  readonly term: string;
  readonly labels: readonly L[];
}

interface TrieNode<L extends string> {
  children?: Map<string, TrieNode<L>>;
  labels?: L[];
  term?: string;
}

/** Plural suffixes young-person and person nouns also match with (kids, princesses, children). */
const PLURAL_SUFFIXES = ['', 's', 'es', 'ren'];
/** Shortest letter-spaced run read as a word. */
const MIN_SPACED_RUN = 3;

/** Word lists compiled once into a trie over canonical tokens; matching is one map look-up per token. */
export class TermMatcher<L extends string> {
  private readonly root = new Map<string, TrieNode<L>>();
  private longestToken = 0;

  /** Compiles lists keyed by label; labels in `pluralLabels` also match their terms with plural suffixes. */
  constructor(lists: Readonly<Record<L, readonly string[]>>, pluralLabels: ReadonlySet<L> = new Set()) {
    for (const label of Object.keys(lists) as L[]) {
      for (const term of lists[label]) {
        const tokens = canonicalTerm(term);
        if (tokens.length === 0) throw new Error(`word list ${label}: term ${JSON.stringify(term)} has no letters`);
        const suffixes = pluralLabels.has(label) ? PLURAL_SUFFIXES : [''];
        for (const suffix of suffixes) {
          const spelled = [...tokens.slice(0, -1), tokens[tokens.length - 1]! + suffix];
          this.insert(spelled, label);
        }
      }
    }
  }

  private insert(tokens: readonly string[], label: L): void {
    let level = this.root;
    let node: TrieNode<L> | undefined;
    for (const [i, token] of tokens.entries()) {
      node = level.get(token);
      if (!node) level.set(token, (node = {}));
      if (i < tokens.length - 1) level = node.children ??= new Map<string, TrieNode<L>>();
    }
    if (tokens.length === 1) this.longestToken = Math.max(this.longestToken, tokens[0]!.length);
    const leaf = node!;
    leaf.term = tokens.join(' ');
    leaf.labels ??= [];
    if (!leaf.labels.includes(label)) leaf.labels.push(label);
  }

  /** Leftmost-longest, non-overlapping matches over a tokenised prompt. */
  find(tokens: Tokens): TermMatch<L>[] {
    const { canon, start, end } = tokens;
    const out: TermMatch<L>[] = [];
    let i = 0;
    while (i < canon.length) {
      let node = this.root.get(canon[i]!);
      let j = i;
      let best: TrieNode<L> | undefined;
      let bestEnd = i;
      while (node) {
        j++;
        if (node.labels) {
          best = node;
          bestEnd = j;
        }
        if (!node.children || j >= canon.length) break;
        node = node.children.get(canon[j]!);
      }
      if (best) {
        out.push({
          start: start[i]!,
          end: end[bestEnd - 1]!,
          tokenStart: i,
          tokenEnd: bestEnd,
          term: best.term!,
          labels: best.labels!,
        });
        i = bestEnd;
      } else {
        i++;
      }
    }
    return this.spacedRuns(tokens, out);
  }

  /**
   * Letter-spaced words ("n u d e", "n.u.d.e") arrive as runs of one-letter tokens. Each run of three or more is
   * also read as one word; runs are rare in real prompts, so the quadratic look-up over a run costs nothing.
   */
  private spacedRuns(tokens: Tokens, matches: TermMatch<L>[]): TermMatch<L>[] {
    const { canon, start, end } = tokens;
    const extra: TermMatch<L>[] = [];
    for (let i = 0; i < canon.length;) {
      if (canon[i]!.length !== 1) {
        i++;
        continue;
      }
      let runEnd = i;
      while (runEnd < canon.length && canon[runEnd]!.length === 1) runEnd++;
      // Each token of the run is one letter, so run positions and string positions coincide.
      const letters = runEnd - i >= MIN_SPACED_RUN ? canon.slice(i, runEnd).join('') : '';
      for (let s = i; letters !== '' && s <= runEnd - MIN_SPACED_RUN;) {
        let found = -1;
        // A spaced word is never longer than the longest single-token term, which bounds the work per letter.
        for (let e = Math.min(runEnd, s + this.longestToken); e >= s + MIN_SPACED_RUN && found < 0; e--) {
          const node = this.root.get(letters.slice(s - i, e - i));
          if (node?.labels) {
            found = e;
            extra.push({
              start: start[s]!,
              end: end[e - 1]!,
              tokenStart: s,
              tokenEnd: e,
              term: node.term!,
              labels: node.labels,
            });
          }
        }
        s = found > 0 ? found : s + 1;
      }
      i = runEnd;
    }
    return extra.length === 0 ? matches : [...matches, ...extra].sort((a, b) => a.start - b.start);
  }
}
