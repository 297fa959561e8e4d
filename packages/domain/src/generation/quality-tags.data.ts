/**
 * Quality-tag texts per model family. Each list is the comma-joined tag text placed before (prefix) or after
 * (suffix) the user's prompt. Sources: the model cards of each family (Animagine XL 3.x and 4.0, Pony Diffusion V6,
 * Illustrious/NoobAI); see docs/decisions/generation.md.
 */
export interface QualityTagSet {
  readonly prefix: string;
  readonly suffix: string;
  readonly negativePrefix: string;
  readonly negativeSuffix: string;
}

export const QUALITY_TAG_FAMILIES = {
  /** Animagine XL 3.x and its derivatives (Holodayo, Kivotos): quality tags go after the prompt. */
  animagine3: {
    prefix: '',
    suffix: 'masterpiece, best quality, very aesthetic, absurdres',
    negativePrefix:
      'nsfw, lowres, bad anatomy, bad hands, text, error, missing fingers, extra digit, fewer digits, cropped, worst quality, low quality, jpeg artifacts, signature, watermark, username, blurry',
    negativeSuffix: '',
  },
  /** Animagine XL 4.0 uses score-style quality words. */
  animagine4: {
    prefix: '',
    suffix: 'masterpiece, high score, great score, absurdres',
    negativePrefix:
      'nsfw, lowres, bad anatomy, bad hands, text, error, missing finger, extra digits, fewer digits, cropped, worst quality, low quality, low score, bad score, average score, signature, watermark, username, blurry',
    negativeSuffix: '',
  },
  /** Pony Diffusion V6 family: score tags and a source tag lead the prompt. */
  pony: {
    prefix: 'score_9, score_8_up, score_7_up, source_anime',
    suffix: '',
    negativePrefix: 'score_6, score_5, score_4, nsfw, worst quality, low quality',
    negativeSuffix: '',
  },
  /** Illustrious and NoobAI family (Danbooru-trained): quality and recency tags lead the prompt. */
  illustrious: {
    prefix: 'masterpiece, best quality, newest, absurdres, highres',
    suffix: '',
    negativePrefix:
      'nsfw, worst quality, old, early, low quality, lowres, signature, username, logo, bad hands, mutated hands',
    negativeSuffix: '',
  },
  /** Other anime SDXL merges: the common short Danbooru quality tags. */
  animeSdxl: {
    prefix: 'masterpiece, best quality',
    suffix: '',
    negativePrefix:
      'nsfw, lowres, worst quality, low quality, bad anatomy, bad hands, jpeg artifacts, signature, watermark',
    negativeSuffix: '',
  },
  /** Natural-language models (SDXL base, FLUX, GPT Image): no tags. */
  none: { prefix: '', suffix: '', negativePrefix: '', negativeSuffix: '' },
} as const satisfies Record<string, QualityTagSet>;

export type QualityTagFamily = keyof typeof QUALITY_TAG_FAMILIES;
