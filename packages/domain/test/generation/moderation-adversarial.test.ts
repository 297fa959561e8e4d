/**
 * Adversarial corpus: every prompt of the labelled corpus that moderation refuses as written is rewritten the way an
 * evader would (look-alike characters, digit and symbol substitutions, invisible characters, letters split by
 * separators, repeated letters, accents, case, Japanese script tricks, and random mixes of these), several times
 * each, and must still be refused. The same rewrites of the allowed prompts must stay allowed at ≥ 99 %.
 * Recall and precision per transformation family are printed.
 */
import { describe, expect, it } from 'vitest';
import { moderatePrompt } from '../../src/generation/index.ts';
import { mulberry32 } from '../../src/random/mulberry32.ts';
import { CORPUS } from './moderation-corpus.ts';

type Rnd = () => number;
const pick = <T>(rnd: Rnd, xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
const isLetter = (c: string) => /^[a-zA-Z]$/.test(c);

/** Rewrites each Latin letter of the prompt with probability p. */
function perLetter(prompt: string, rnd: Rnd, p: number, f: (c: string, i: number, s: string) => string): string {
  let out = '';
  for (let i = 0; i < prompt.length; i++) {
    const c = prompt.charAt(i);
    out += isLetter(c) && rnd() < p ? f(c, i, prompt) : c;
  }
  return out;
}

// Look-alikes from Unicode's confusables.txt (Cyrillic, Greek, Armenian, small capitals) plus fullwidth and
// mathematical alphanumerics, chosen for the test independently of the implementation's table.
const LOOK_ALIKES: Readonly<Record<string, string>> = {
  a: 'аαɑ',
  b: 'Ьƅ',
  c: 'сϲᴄ',
  d: 'ԁ',
  e: 'еҽ',
  g: 'ɡց',
  h: 'һհ',
  i: 'іιı',
  j: 'ј',
  k: 'кκ',
  l: 'ӏǀ',
  m: 'м',
  n: 'ոп',
  o: 'оοօσ',
  p: 'рρ',
  q: 'ԛ',
  r: 'г',
  s: 'ѕꜱ',
  t: 'тτ',
  u: 'υս',
  v: 'νѵ',
  w: 'ԝѡ',
  x: 'хχ',
  y: 'уγ',
  z: 'ᴢ',
};
function lookAlike(c: string, rnd: Rnd): string {
  const lower = c.toLowerCase();
  const offset = lower.charCodeAt(0) - 97;
  const style = rnd();
  if (style < 0.25) return String.fromCodePoint(0xff41 + offset); // fullwidth
  if (style < 0.5) return String.fromCodePoint(0x1d41a + offset); // mathematical bold small
  if (style < 0.6) return String.fromCodePoint(0x24d0 + offset); // circled
  const options = LOOK_ALIKES[lower];
  return options ? pick(rnd, [...options]) : String.fromCodePoint(0x1d5ba + offset); // sans-serif small
}

const LEET: Readonly<Record<string, readonly string[]>> = {
  a: ['4', '@'],
  e: ['3'],
  i: ['1', '!', '|'],
  l: ['1', '|'],
  o: ['0'],
  s: ['5', '$'],
  t: ['7'],
  b: ['8'],
  g: ['9'],
};
function leet(c: string, i: number, s: string, rnd: Rnd): string {
  const options = LEET[c.toLowerCase()];
  if (!options) return c;
  // ! and | read as letters only inside a word (a trailing "!" is punctuation).
  const inner = isLetter(s.charAt(i - 1)) && isLetter(s.charAt(i + 1));
  const usable = options.filter((o) => inner || (o !== '!' && o !== '|'));
  return pick(rnd, usable);
}

const INVISIBLE = [
  '\u200b',
  '\u200c',
  '\u200d',
  '\u00ad',
  '\u2060',
  '\ufeff',
  '\ufe0f',
  '\u200e',
  '\u202e',
  '\u{e0020}',
];
const MARKS = ['\u0301', '\u0308', '\u0336', '\u0323', '\u030a', '\u0302'];

/** Splits some words: letter by letter with one separator ("n-a-k-e-d"), or in two parts with a joiner ("na.ked"). */
function separators(prompt: string, rnd: Rnd): string {
  // Words of letters and digits (leet words too); never split between two digits, which would change a number.
  return prompt.replace(/[A-Za-z0-9]*[A-Za-z][A-Za-z0-9]*/g, (word) => {
    if (word.length < 3) return word;
    if (rnd() < 0.4) return word;
    if (rnd() < 0.5) {
      const sep = pick(rnd, [' ', '-', '.', '_', '*', '·', '/']);
      return [...word]
        .map((c, i) => (i > 0 && /\d/.test(c) && /\d/.test(word.charAt(i - 1)) ? c : sep + c))
        .join('')
        .slice(1);
    }
    let cut = 1 + Math.floor(rnd() * (word.length - 1));
    if (/\d/.test(word.charAt(cut)) && /\d/.test(word.charAt(cut - 1))) cut = word.length;
    if (cut >= word.length) return word;
    return word.slice(0, cut) + pick(rnd, ['-', '.', '_', '*', "'", '~', '·']) + word.slice(cut);
  });
}

/** Japanese script tricks: hiragana for katakana, half-width katakana, a separator between characters. */
function japanese(prompt: string, rnd: Rnd): string {
  let out = '';
  for (const ch of prompt) {
    const code = ch.charCodeAt(0);
    let c = ch;
    if (code >= 0x30a1 && code <= 0x30f6 && rnd() < 0.4) c = String.fromCharCode(code - 0x60);
    else if (code >= 0x30a1 && code <= 0x30fc && rnd() < 0.3) c = ch.normalize('NFKD').replace(/./gu, halfWidth);
    out += c;
    if (code >= 0x3040 && code <= 0x9fff && rnd() < 0.3) out += pick(rnd, ['・', ' ', '\u200b', '･']);
  }
  return out;
}
const HALF: Readonly<Record<string, string>> = Object.fromEntries(
  [...'ｦｧｨｩｪｫｬｭｮｯｰｱｲｳｴｵｶｷｸｹｺｻｼｽｾｿﾀﾁﾂﾃﾄﾅﾆﾇﾈﾉﾊﾋﾌﾍﾎﾏﾐﾑﾒﾓﾔﾕﾖﾗﾘﾙﾚﾛﾜﾝﾞﾟ'].map((h) => [h.normalize('NFKC'), h]),
);
function halfWidth(c: string): string {
  if (c === '\u3099') return 'ﾞ';
  if (c === '\u309a') return 'ﾟ';
  return HALF[c] ?? c;
}

type Family = (prompt: string, rnd: Rnd) => string;
const FAMILIES: Readonly<Record<string, Family>> = {
  case: (p, rnd) => perLetter(p, rnd, 0.5, (c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())),
  leet: (p, rnd) => perLetter(p, rnd, 0.5, (c, i, s) => leet(c, i, s, rnd)),
  confusables: (p, rnd) => perLetter(p, rnd, 0.5, (c) => lookAlike(c, rnd)),
  invisible: (p, rnd) => perLetter(p, rnd, 0.4, (c) => c + pick(rnd, INVISIBLE)),
  separators,
  repeats: (p, rnd) => perLetter(p, rnd, 0.3, (c) => c.repeat(2 + Math.floor(rnd() * 3))),
  accents: (p, rnd) => perLetter(p, rnd, 0.4, (c) => (c + pick(rnd, MARKS)).normalize(rnd() < 0.5 ? 'NFC' : 'NFD')),
  japanese,
  mixed: (p, rnd) => {
    const names = ['case', 'leet', 'confusables', 'invisible', 'repeats', 'accents', 'japanese', 'separators'];
    let out = p;
    // Separators go last: splitting first would leave nothing for the letter rewrites to stay inside.
    const chosen = [...new Set([pick(rnd, names), pick(rnd, names), pick(rnd, names)])].sort(
      (a, b) => Number(a === 'separators') - Number(b === 'separators'),
    );
    for (const name of chosen) out = FAMILIES[name]!(out, rnd);
    return out;
  },
};

const VARIANTS = 8;
const rejectCases = CORPUS.filter(([p, l]) => l === 'reject' && !moderatePrompt(p).allowed).map(([p]) => p);
const allowCases = CORPUS.filter(([p, l]) => l !== 'reject' && moderatePrompt(p).allowed).map(([p]) => p);

interface Outcome {
  family: string;
  missed: string[];
  rejectTotal: number;
  blocked: string[];
  allowTotal: number;
}

function run(family: string, f: Family): Outcome {
  const out: Outcome = { family, missed: [], rejectTotal: 0, blocked: [], allowTotal: 0 };
  let seed = 1;
  for (const p of rejectCases) {
    for (let v = 0; v < VARIANTS; v++, seed++) {
      const variant = f(p, mulberry32(seed * 7919 + family.length));
      out.rejectTotal++;
      if (moderatePrompt(variant).allowed) out.missed.push(`${JSON.stringify(variant)} (from ${JSON.stringify(p)})`);
    }
  }
  for (const p of allowCases) {
    for (let v = 0; v < VARIANTS; v++, seed++) {
      const variant = f(p, mulberry32(seed * 7919 + family.length));
      out.allowTotal++;
      if (!moderatePrompt(variant).allowed) out.blocked.push(`${JSON.stringify(variant)} (from ${JSON.stringify(p)})`);
    }
  }
  return out;
}

describe('moderation against evasion (adversarial corpus)', () => {
  const outcomes = Object.entries(FAMILIES).map(([name, f]) => run(name, f));

  it('prints recall and precision per transformation family', () => {
    console.table(
      outcomes.map((o) => ({
        family: o.family,
        'reject variants': o.rejectTotal,
        'still refused (recall)': ((o.rejectTotal - o.missed.length) / o.rejectTotal).toFixed(4),
        'allow variants': o.allowTotal,
        'still allowed (precision)': ((o.allowTotal - o.blocked.length) / o.allowTotal).toFixed(4),
      })),
    );
    expect(rejectCases.length).toBeGreaterThan(150);
    expect(allowCases.length).toBeGreaterThan(150);
  });

  // Splitting words apart is the one family with known residual misses (docs/decisions/generation.md: parts of
  // more than three letters split by spaces, digits spaced out, a cut that leaves a stray letter); the rest must hold
  // fully.
  const MIN_RECALL: Readonly<Record<string, number>> = { separators: 0.995, mixed: 0.995 };

  it.each(Object.keys(FAMILIES))('under %s refused prompts stay refused', (family) => {
    const o = outcomes.find((x) => x.family === family)!;
    const recall = (o.rejectTotal - o.missed.length) / o.rejectTotal;
    const min = MIN_RECALL[family] ?? 1;
    if (recall < 1) console.log(`${family} missed:\n  ${o.missed.join('\n  ')}`);
    if (min === 1) expect(o.missed).toEqual([]);
    else expect(recall).toBeGreaterThanOrEqual(min);
  });

  it.each(Object.keys(FAMILIES))('under %s at least 99 percent of allowed prompts stay allowed', (family) => {
    const o = outcomes.find((x) => x.family === family)!;
    const rate = (o.allowTotal - o.blocked.length) / o.allowTotal;
    if (rate < 0.99) console.log(`${family} blocked:\n  ${o.blocked.slice(0, 30).join('\n  ')}`);
    expect(rate).toBeGreaterThanOrEqual(0.99);
  });

  it('each family actually changes the prompts it is given', () => {
    for (const [name, f] of Object.entries(FAMILIES)) {
      if (name === 'japanese') continue;
      const changed = rejectCases.filter((p, i) => f(p, mulberry32(i + 1)) !== p).length;
      expect(changed / rejectCases.length, name).toBeGreaterThan(0.7);
    }
    const japaneseCases = rejectCases.filter((p) => /[\u3040-\u30ff]/.test(p));
    const changed = japaneseCases.filter((p, i) => japanese(p, mulberry32(i + 1)) !== p).length;
    expect(changed / japaneseCases.length).toBeGreaterThan(0.8);
  });
});
