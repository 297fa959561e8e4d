// The public surface of moderation; label sets and predicates in terms.ts stay internal.
export { normalizePrompt, type Normalized } from './normalize.ts';
export { tokenize, type Tokens } from './tokenize.ts';
export { TermMatcher, squeeze, type TermMatch } from './matcher.ts';
export { detectAges, type AgeMention } from './ages.ts';
export * from './words.data.ts';
export { JAPANESE_TERMS } from './words-ja.data.ts';
export { findTerms, type ModerationLabel, type ModerationMatch } from './terms.ts';
export { isBanned, replaceBannedWords, replaceMatches, stripNsfw } from './strip.ts';
export * from './moderate.ts';
export * from './moderate-request.ts';
