/** Why an image was refused before any model saw it. */
export type VisionInputErrorCode = 'EMPTY' | 'NOT_AN_IMAGE' | 'TOO_LARGE' | 'BAD_ARGUMENT';

/** Bad input from the caller: the route answers 400 with `message`. */
export class VisionInputError extends Error {
  override readonly name = 'VisionInputError';
  constructor(
    readonly code: VisionInputErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** A model or runtime could not be loaded or run: the route answers 500/503 with `message`. */
export class VisionModelError extends Error {
  override readonly name = 'VisionModelError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** The caller's AbortSignal fired before the work finished. */
export class VisionAbortedError extends Error {
  override readonly name = 'VisionAbortedError';
  constructor() {
    super('Vision operation aborted');
  }
}
