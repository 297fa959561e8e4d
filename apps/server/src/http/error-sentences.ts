/**
 * Validation failures as sentences that name the field (issue #20 item 9): "width must be at most 1536",
 * "encoded must be a string, not a number", "status must be one of active, recent". Built from zod's issue codes
 * and their parameters; a schema's own message (written as a predicate: "is required") follows the field.
 */
export interface IssueLike {
  readonly code: string;
  readonly message: string;
  readonly expected?: unknown;
  readonly origin?: unknown;
  readonly minimum?: unknown;
  readonly maximum?: unknown;
  readonly inclusive?: unknown;
  readonly format?: unknown;
  readonly values?: unknown;
  readonly keys?: unknown;
}

const TYPE_NAMES: Readonly<Record<string, string>> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
  bigint: 'a whole number',
  date: 'a date',
};

const FORMAT_NAMES: Readonly<Record<string, string>> = {
  email: 'an email address',
  url: 'a URL',
  uuid: 'a UUID',
  datetime: 'a date and time',
  regex: 'in the expected format',
};

function plural(n: number, one: string): string {
  return `${n} ${one}${n === 1 ? '' : 's'}`;
}

function bound(issue: IssueLike, which: 'least' | 'most'): string {
  const n = Number(which === 'least' ? issue.minimum : issue.maximum);
  const strict = issue.inclusive === false;
  switch (issue.origin) {
    case 'string':
      return `must be at ${which} ${plural(n, 'character')}`;
    case 'array':
    case 'set':
      return `must have at ${which} ${plural(n, 'item')}`;
    default:
      if (strict) return `must be ${which === 'least' ? 'greater' : 'less'} than ${n}`;
      return `must be at ${which} ${n}`;
  }
}

/** What is wrong with a field, as a predicate ("must be at most 1536"); null when zod's own words must do. */
function predicate(issue: IssueLike): string | null {
  switch (issue.code) {
    case 'invalid_type': {
      const received = /received (\w+)/.exec(issue.message)?.[1];
      if (received === 'undefined') return 'is required';
      const expected = TYPE_NAMES[String(issue.expected)] ?? String(issue.expected);
      return received
        ? `must be ${expected}, not ${received === 'null' ? 'null' : (TYPE_NAMES[received] ?? received)}`
        : `must be ${expected}`;
    }
    case 'too_small':
      return bound(issue, 'least');
    case 'too_big':
      return bound(issue, 'most');
    case 'invalid_format':
      return `must be ${FORMAT_NAMES[String(issue.format)] ?? `in ${String(issue.format)} format`}`;
    case 'invalid_value':
      return Array.isArray(issue.values) ? `must be one of ${issue.values.map(String).join(', ')}` : null;
    case 'unrecognized_keys':
      return Array.isArray(issue.keys) ? `has unknown fields: ${issue.keys.map(String).join(', ')}` : null;
    case 'invalid_union':
      return 'does not match any accepted form';
    default:
      return null;
  }
}

// zod's built-in messages start with these words; anything else was written by a schema for this field.
const BUILT_IN = /^(Invalid|Too (small|big)|Unrecognized|Expected)/;

/** "field must …" for one issue at `field` (a dotted path, or where the value came from when empty). */
export function issueSentence(field: string, issue: IssueLike): string {
  const own = !BUILT_IN.test(issue.message);
  if (own) return /^[a-z]/.test(issue.message) ? `${field} ${issue.message}` : `${field}: ${issue.message}`;
  const what = predicate(issue);
  return what ? `${field} ${what}` : `${field}: ${issue.message}`;
}
