export type ImportErrorCode = 'tooShort' | 'notPsd' | 'version' | 'depth' | 'colorMode' | 'unreadable' | 'komaData';

/**
 * A file that cannot be imported at all, with a message for the user in English, and a code and the values it
 * names for the browser to word it in the user's language.
 */
export class ImportError extends Error {
  override readonly name = 'ImportError';
  constructor(
    message: string,
    readonly code: ImportErrorCode,
    readonly values: Record<string, string | number> = {},
  ) {
    super(message);
  }
}
