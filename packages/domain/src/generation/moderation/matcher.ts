import { isLetter, joinings, linked, tokenize, type JoinedTokens, type Joinings, type Tokens } from './tokenize.ts';

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
  /** For terms written with digits (r18): the raw spelling the prompt must have, so "rib" is not "r18". */
  raw?: string;
}

/** Plural suffixes young-person and person nouns also match with (kids, princesses, children). */
const PLURAL_SUFFIXES = ['', 's', 'es', 'ren'];
/** One-letter words a split-up chain may leave over besides its terms ("a n u d e"). */
const SINGLE_LETTER_WORDS = new Set(['a', 'i']);
/** Shortest squeezed key: below this, collapsing repeats makes unrelated words collide. */
const MIN_SQUEEZED = 2;
const HAS_DIGIT = /\d/;

/** True when a character follows itself somewhere in the token. */
export function hasDouble(token: string): boolean {
  for (let k = 1; k < token.length; k++) if (token.charCodeAt(k) === token.charCodeAt(k - 1)) return true;
  return false;
}

/** Collapses every run of one repeated character to one ("nakeddd" → "naked", "teen" → "ten"). */
export function squeeze(token: string): string {
  if (!hasDouble(token)) return token;
  let out = token.charAt(0);
  for (let k = 1; k < token.length; k++) if (token.charCodeAt(k) !== token.charCodeAt(k - 1)) out += token.charAt(k);
  return out;
}

type Trie<L extends string> = Map<string, TrieNode<L>>;

/**
 * Word lists compiled once into two tries over canonical tokens: one exact, one with repeated letters collapsed
 * (read only for words that repeat a letter, so "ten" never matches "teen"). Matching is one map look-up per token.
 */
export class TermMatcher<L extends string> {
  private readonly root: Trie<L> = new Map();
  private readonly squeezed: Trie<L> = new Map();
  private longestToken = 0;

  /** Compiles lists keyed by label; labels in `pluralLabels` also match their terms with plural suffixes. */
  constructor(lists: Readonly<Record<L, readonly string[]>>, pluralLabels: ReadonlySet<L> = new Set()) {
    for (const label of Object.keys(lists) as L[]) {
      for (const term of lists[label]) {
        const t = tokenize(term);
        if (t.canon.length === 0) throw new Error(`word list ${label}: term ${JSON.stringify(term)} has no letters`);
        const raw = HAS_DIGIT.test(term) ? t.raw.join(' ') : undefined;
        const suffixes = pluralLabels.has(label) ? PLURAL_SUFFIXES : [''];
        for (const suffix of suffixes) {
          const spelled = [...t.canon.slice(0, -1), t.canon[t.canon.length - 1]! + suffix];
          // A multi-word term is also one word written together ("taylorswift", "spreadlegs"), which is also how a
          // chain of split letters reads it ("m i d d l e s c h o o l").
          const forms = spelled.length > 1 ? [spelled, [spelled.join('')]] : [spelled];
          for (const form of forms) {
            this.insert(this.root, form, label, spelled.join(' '), raw);
            const short = form.map(squeeze);
            if (short.join('').length >= MIN_SQUEEZED) this.insert(this.squeezed, short, label, spelled.join(' '), raw);
          }
        }
      }
    }
  }

  private insert(root: Trie<L>, tokens: readonly string[], label: L, term: string, raw: string | undefined): void {
    let level = root;
    let node: TrieNode<L> | undefined;
    for (const [i, token] of tokens.entries()) {
      node = level.get(token);
      if (!node) level.set(token, (node = {}));
      if (i < tokens.length - 1) level = node.children ??= new Map<string, TrieNode<L>>();
    }
    if (tokens.length === 1 && root === this.root) this.longestToken = Math.max(this.longestToken, tokens[0]!.length);
    const leaf = node!;
    leaf.term ??= term;
    if (raw !== undefined) leaf.raw = raw;
    leaf.labels ??= [];
    if (!leaf.labels.includes(label)) leaf.labels.push(label);
  }

  /**
   * Leftmost-longest, non-overlapping matches over a tokenised prompt, plus what reading repeated letters as one,
   * letter-spaced runs as words, and word parts joined by one separator as one word ("na-ked") adds.
   */
  find(tokens: Tokens, { joined, loose }: Joinings = joinings(tokens)): TermMatch<L>[] {
    let out = this.walk(tokens, this.root, tokens.canon, null);
    const repeats = tokens.canon.some((c) => hasDouble(c));
    if (repeats) out = merge(out, this.walk(tokens, this.squeezed, tokens.canon.map(squeeze), tokens.canon));
    out = merge(out, this.chains(tokens));
    // Multi-word terms whose words were split ("elementary s_chool gi_rl"): the walk over the joined words, strictly
    // joined and, where that joins more ("e l e m e n t a r y"), loosely.
    if (joined) out = merge(out, this.walkJoined(joined));
    if (loose) out = merge(out, this.walkJoined(loose));
    return out;
  }

  /** The walks over joined words, with matches given in the tokens they were joined from. */
  private walkJoined(joined: JoinedTokens): TermMatch<L>[] {
    const extra = this.walk(joined, this.root, joined.canon, null);
    if (joined.canon.some((c) => hasDouble(c))) {
      extra.push(...this.walk(joined, this.squeezed, joined.canon.map(squeeze), joined.canon));
    }
    return extra.map((m) => ({
      ...m,
      tokenStart: joined.origin[m.tokenStart]!,
      tokenEnd: joined.originEnd[m.tokenEnd - 1]!,
    }));
  }

  /**
   * One leftmost-longest pass of a trie over token keys. With `original` (the squeezed pass), a match must contain
   * a token that actually repeats a letter; the exact pass has already read everything else.
   */
  private walk(tokens: Tokens, root: Trie<L>, keys: readonly string[], original: readonly string[] | null) {
    const { start, end, raw } = tokens;
    const out: TermMatch<L>[] = [];
    let i = 0;
    while (i < keys.length) {
      let node = root.get(keys[i]!);
      let j = i;
      let best: TrieNode<L> | undefined;
      let bestEnd = i;
      while (node) {
        j++;
        if (node.labels && (node.raw === undefined || raw.slice(i, j).join(' ') === node.raw)) {
          best = node;
          bestEnd = j;
        }
        if (!node.children || j >= keys.length) break;
        node = node.children.get(keys[j]!);
      }
      if (best && original && !original.slice(i, bestEnd).some((c) => hasDouble(c))) best = undefined;
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
    return out;
  }

  /** The term a run of parts spells when written together, exact or with repeated letters collapsed. */
  private termOf(word: string): TrieNode<L> | undefined {
    const exact = this.root.get(word);
    if (exact?.labels && exact.raw === undefined) return exact;
    if (!hasDouble(word)) return undefined;
    const short = this.squeezed.get(squeeze(word));
    return short?.labels && short.raw === undefined ? short : undefined;
  }

  /**
   * Words split into parts ("na-ked", "n a k e d", "y_o_u_n_g_g_i_r_l"): each chain of linked tokens (tokenize.ts
   * `linked`) is read as terms written together, where the chain divides wholly into terms and leftovers (a whole
   * part of two or more letters, a digit, or the one-letter words a and i). A term that needs a stray letter to
   * fit ("s p i c y" holds "spic" but leaves "y") is not read, so ordinary words spelled out do not match.
   */
  private chains(tokens: Tokens): TermMatch<L>[] {
    const { canon } = tokens;
    const out: TermMatch<L>[] = [];
    for (let i = 0; i < canon.length;) {
      let e = i + 1;
      while (e < canon.length && linked(tokens, e, true)) e++;
      if (e - i >= 2) out.push(...this.segment(tokens, i, e));
      i = e;
    }
    return out;
  }

  /** The terms of one chain (tokens from..to), when it divides wholly into terms and leftovers (see chains). */
  private segment(tokens: Tokens, from: number, to: number): TermMatch<L>[] {
    const parts = tokens.canon.slice(from, to);
    const k = parts.length;
    // best[p]: the most letters covered by terms in a division of parts 0..p-1 (-1: no division).
    const runEnd = spelledRuns(tokens, from, to);
    const wordEnd = joinedWords(tokens, from, to);
    const best = new Array<number>(k + 1).fill(-1);
    const back = new Array<{ from: number; node?: TrieNode<L> }>(k + 1);
    best[0] = 0;
    const limit = this.longestToken;
    for (let p = 0; p < k; p++) {
      if (best[p]! < 0) continue;
      const part = parts[p]!;
      if (
        (part.length >= 2 && squeeze(part).length >= 2) ||
        SINGLE_LETTER_WORDS.has(squeeze(part)) ||
        /^\d$/.test(tokens.raw[from + p]!)
      ) {
        if (best[p]! > best[p + 1]!) {
          best[p + 1] = best[p]!;
          back[p + 1] = { from: p };
        }
      }
      // A spelled-out word ("b/l/o/n/d/e") and a word with joining characters inside ("wh'o") are leftovers whole.
      const run = runEnd[p]!;
      if (run > 0 && best[p]! > best[run]!) {
        best[run] = best[p]!;
        back[run] = { from: p };
      }
      const word = wordEnd[p]!;
      if (word > 0 && best[p]! > best[word]!) {
        best[word] = best[p]!;
        back[word] = { from: p };
      }
      let written = '';
      for (let q = p + 1; q <= k; q++) {
        written += parts[q - 1]!;
        if (written.length > limit) break;
        const letters = written.length;
        const node = this.termOf(written);
        if (node && best[p]! + letters > best[q]!) {
          best[q] = best[p]! + letters;
          back[q] = { from: p, node };
        }
      }
    }
    if (best[k]! <= 0) return [];
    const found: TermMatch<L>[] = [];
    for (let q = k; q > 0;) {
      const step = back[q]!;
      if (step.node) {
        found.push({
          start: tokens.start[from + step.from]!,
          end: tokens.end[from + q - 1]!,
          tokenStart: from + step.from,
          tokenEnd: from + q,
          term: step.node.term!,
          labels: step.node.labels!,
        });
      }
      q = step.from;
    }
    return found.reverse();
  }
}

const SPACE = 32;

/**
 * For each part of a chain (tokens from..to) that starts a word written with joining characters inside ("wh'o",
 * "b'aby"), the chain index just past that word, else 0. Such a word is a leftover as a whole.
 */
function joinedWords(tokens: Tokens, from: number, to: number): number[] {
  const k = to - from;
  const wordEnd = new Array<number>(k + 1).fill(0);
  for (let p = 0; p < k;) {
    let q = p + 1;
    while (q < k && tokens.joinBefore[from + q]) q++;
    if (q - p >= 2) wordEnd[p] = q;
    p = q;
  }
  return wordEnd;
}

/**
 * For each part of a chain (tokens from..to) that starts a spelled-out word, the chain index just past that word,
 * else 0. A spelled-out word is a run of two or more one-letter parts with the same single character between each
 * two ("b/l/o/n/d/e", "d r e s s"). A letter between two different characters belongs to the side whose character
 * goes on past its neighbour (in "p r e-t*e*e*n" the dash stands once, so "pre" and "teen"); when both go on, to the
 * side that is not a space, since words are set apart by spaces ("s·e·x·y p o s e", "t h r o u g h d/r/e/s/s").
 */
function spelledRuns(tokens: Tokens, from: number, to: number): number[] {
  const k = to - from;
  const runEnd = new Array<number>(k + 1).fill(0);
  for (let p = 0; p < k;) {
    let q = p + 1;
    while (
      isLetterAt(tokens, from, to, p) &&
      q < k &&
      takesRight(tokens, from, to, q - 1) &&
      takesLeft(tokens, from, to, q)
    )
      q++;
    if (q - p >= 2) runEnd[p] = q;
    p = q;
  }
  return runEnd;
}

function isLetterAt(tokens: Tokens, from: number, to: number, p: number): boolean {
  return p >= 0 && from + p < to && isLetter(tokens.raw[from + p]!);
}

/** The character between chain parts p - 1 and p when both are letters, else -1. */
function letterGap(tokens: Tokens, from: number, to: number, p: number): number {
  return isLetterAt(tokens, from, to, p - 1) && isLetterAt(tokens, from, to, p) ? tokens.gapBefore[from + p]! : -1;
}

/** Whether letter p of a chain takes its left gap into its spelled-out word (see spelledRuns). */
function takesLeft(tokens: Tokens, from: number, to: number, p: number): boolean {
  const left = letterGap(tokens, from, to, p);
  const right = letterGap(tokens, from, to, p + 1);
  if (left < 0) return false;
  if (right < 0 || right === left) return true;
  const leftGoesOn = letterGap(tokens, from, to, p - 1) === left;
  const rightGoesOn = letterGap(tokens, from, to, p + 2) === right;
  if (leftGoesOn !== rightGoesOn) return leftGoesOn;
  return leftGoesOn ? right === SPACE : true;
}

/** Whether letter p of a chain takes its right gap into its spelled-out word. */
function takesRight(tokens: Tokens, from: number, to: number, p: number): boolean {
  const left = letterGap(tokens, from, to, p);
  const right = letterGap(tokens, from, to, p + 1);
  if (right < 0) return false;
  return left < 0 || left === right || !takesLeft(tokens, from, to, p);
}

/** Adds matches that cover a span no earlier match covers exactly, in order of position. */
function merge<L extends string>(base: TermMatch<L>[], extra: readonly TermMatch<L>[]): TermMatch<L>[] {
  if (extra.length === 0) return base;
  const seen = new Set(base.map((m) => `${m.start}:${m.end}`));
  const added = extra.filter((m) => !seen.has(`${m.start}:${m.end}`));
  if (added.length === 0) return base;
  return [...base, ...added].sort((a, b) => a.start - b.start || b.end - a.end);
}
