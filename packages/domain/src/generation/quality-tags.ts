/** The four tag texts a model contributes; see QUALITY_TAG_FAMILIES. */
export interface QualityTags {
  readonly qualityTagsPrefix: string;
  readonly qualityTagsSuffix: string;
  readonly negativeQualityTagsPrefix: string;
  readonly negativeQualityTagsSuffix: string;
}

const SEP = ', ';

// Tags join the prompt with ", " only where both sides are non-empty, so an empty prompt gives the bare tags
// rather than a dangling comma. The three shapes (tags only, prefix+prompt, prompt+suffix, both) never collide
// for a given tag pair because a non-empty prompt adds at least one separator, which keeps `strip` exact.
function wrap(text: string, prefix: string, suffix: string): string {
  let out = text;
  if (prefix !== '') out = out === '' ? prefix : prefix + SEP + out;
  if (suffix !== '') out = out === '' ? suffix : out + SEP + suffix;
  return out;
}

function unwrap(text: string, prefix: string, suffix: string): string {
  if (prefix === '' && suffix === '') return text;
  if (text === wrap('', prefix, suffix)) return '';
  const head = prefix === '' ? '' : prefix + SEP;
  const tail = suffix === '' ? '' : SEP + suffix;
  if (text.length >= head.length + tail.length && text.startsWith(head) && text.endsWith(tail)) {
    return text.slice(head.length, text.length - tail.length);
  }
  return text;
}

/** Puts the model's quality tags around a prompt. Not idempotent: applying twice tags twice. */
export function applyQualityTags(prompt: string, tags: QualityTags): string {
  return wrap(prompt, tags.qualityTagsPrefix, tags.qualityTagsSuffix);
}

/** Removes exactly what applyQualityTags added; text without those tags is returned unchanged. */
export function stripQualityTags(prompt: string, tags: QualityTags): string {
  return unwrap(prompt, tags.qualityTagsPrefix, tags.qualityTagsSuffix);
}

/** Puts the model's negative quality tags around a negative prompt. */
export function applyNegativeQualityTags(negativePrompt: string, tags: QualityTags): string {
  return wrap(negativePrompt, tags.negativeQualityTagsPrefix, tags.negativeQualityTagsSuffix);
}

/** Removes exactly what applyNegativeQualityTags added. */
export function stripNegativeQualityTags(negativePrompt: string, tags: QualityTags): string {
  return unwrap(negativePrompt, tags.negativeQualityTagsPrefix, tags.negativeQualityTagsSuffix);
}
