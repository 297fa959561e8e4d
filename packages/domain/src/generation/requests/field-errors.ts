import type { z } from 'zod';

/** One validation failure, naming the field (dotted path) and, where there is one, the limit. */
export interface FieldError {
  readonly field: string;
  readonly message: string;
}

const TYPE_NAMES: Readonly<Record<string, string>> = {
  int: 'a whole number',
  number: 'a number',
  string: 'text',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
};

function describeIssue(issue: z.core.$ZodIssue, field: string): string {
  switch (issue.code) {
    case 'too_small': {
      const min = Number(issue.minimum);
      if (issue.origin === 'string')
        return min === 1
          ? `${field} is required (at least 1 character)`
          : `${field} must have at least ${min} characters`;
      if (issue.origin === 'array') return `${field} must have at least ${min} item${min === 1 ? '' : 's'}`;
      return issue.inclusive === false ? `${field} must be greater than ${min}` : `${field} must be at least ${min}`;
    }
    case 'too_big': {
      const max = Number(issue.maximum);
      if (issue.origin === 'string') return `${field} must have at most ${max} characters`;
      if (issue.origin === 'array') return `${field} must have at most ${max} items`;
      return issue.inclusive === false ? `${field} must be less than ${max}` : `${field} must be at most ${max}`;
    }
    case 'invalid_type':
      // zod reports a missing key as an invalid type whose received value is undefined.
      if (/received undefined/.test(issue.message)) return `${field} is required`;
      return `${field} must be ${TYPE_NAMES[issue.expected] ?? issue.expected}`;
    case 'invalid_value':
      return `${field} must be one of ${issue.values.map((v) => String(v)).join(', ')}`;
    case 'invalid_format':
      return `${field} must be a valid ${issue.format === 'url' ? 'URL' : issue.format}`;
    case 'unrecognized_keys':
      return `${field} has unknown keys ${issue.keys.join(', ')}`;
    default:
      return `${field} ${issue.message}`;
  }
}

/** Turns a zod error into one `{ field, message }` per issue; the message names the field and the limit. */
export function toFieldErrors(error: z.ZodError): FieldError[] {
  return error.issues.map((issue) => {
    const field = issue.path.length === 0 ? 'request' : issue.path.map(String).join('.');
    return { field, message: describeIssue(issue, field) };
  });
}
