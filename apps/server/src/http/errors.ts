import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { issueSentence } from './error-sentences.ts';

/** The one error body every route answers with. */
export const zErrorReply = z.object({ error: z.string(), message: z.string() }).loose();
export type ErrorReply = z.infer<typeof zErrorReply>;

/** An error that knows its HTTP status and public code; anything else becomes a 500. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    /** Extra fields merged into the body, e.g. `{ revision }` on a conflict. */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/** 400 invalid_request; the message names the field, and `field` carries its path when it is known. */
export const invalidRequest = (message: string, field?: string) =>
  new HttpError(400, 'invalid_request', message, field === undefined ? {} : { field });
/** 401 unauthorized. */
export const unauthorized = () => new HttpError(401, 'unauthorized', 'Sign in first.');
/** 403 forbidden. */
export const forbidden = (message: string) => new HttpError(403, 'forbidden', message);
/** 404 not_found; also what another user's resource answers, so its existence does not leak. */
export const notFound = (what = 'Resource') => new HttpError(404, 'not_found', `${what} not found.`);
/** 409 revision_conflict with the current revision. */
export const revisionConflict = (revision: number) =>
  new HttpError(409, 'revision_conflict', `The workspace was saved elsewhere; current revision is ${revision}.`, {
    revision,
  });
/** 400 not_enough_credits (generation.md §8): a charge would take the balance below zero. */
export const notEnoughCredits = () => new HttpError(400, 'not_enough_credits', 'Not enough credits for this request.');
/** 403 SUBSCRIPTION_REQUIRED (generation.md §8): the feature is for subscribers. */
export const subscriptionRequired = () =>
  new HttpError(403, 'SUBSCRIPTION_REQUIRED', 'This feature requires a subscription.');

/** The first issue of a zod failure as a sentence naming the field, and the field's path. */
function zodFailure(error: z.ZodError, where: string): { message: string; field: string } {
  const issue = error.issues[0];
  if (!issue) return { message: `${where} is not valid.`, field: where };
  const field = issue.path.length > 0 ? issue.path.join('.') : where;
  return { message: issueSentence(field, issue), field };
}

/** "field.sub must …" from fastify-type-provider-zod's issues (instancePath `/field/sub`), with the field's path. */
function validationFailure(err: FastifyError, where: string): { message: string; field: string } {
  const issue = hasZodFastifySchemaValidationErrors(err) ? err.validation[0] : undefined;
  if (!issue) return { message: err.message, field: where };
  const path = issue.instancePath
    .split('/')
    .filter((part) => part !== '')
    .join('.');
  const field = path === '' ? where : path;
  return {
    message: issueSentence(field, { ...(issue.params as object), code: issue.keyword, message: issue.message ?? '' }),
    field,
  };
}

/** Turns a zod failure into a 400 that names the field. */
export function fromZodError(error: z.ZodError, where = 'body'): HttpError {
  const { message, field } = zodFailure(error, where);
  return invalidRequest(message, field);
}

// Fastify's own words for a body it cannot read, replaced by a sentence a person can act on.
const fastifyMessages: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'The request body is not valid JSON.',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is empty; send a JSON object.',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'The request body does not match its Content-Length.',
};

// Fastify's own errors that are the client's fault, mapped to our codes.
const fastifyCodes: Record<string, { status: number; code: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'payload_too_large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, code: 'unsupported_media_type' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, code: 'invalid_request' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: 'invalid_request' },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: 'invalid_request' },
};

/**
 * Installs the error and not-found handlers that give every failure the `{ error, message }` shape.
 * `serveSpa` says which unmatched URLs get the web app's index.html instead of a 404.
 */
export function installErrorHandlers(app: FastifyInstance, serveSpa?: (url: string) => boolean): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof HttpError) {
      return reply.status(err.statusCode).send({ ...err.extra, error: err.code, message: err.message });
    }
    if (err.validation) {
      const where = err.validationContext ?? 'body';
      const { message, field } = validationFailure(err, where);
      return reply.status(400).send({ error: 'invalid_request', message, field });
    }
    const known = err.code ? fastifyCodes[err.code] : undefined;
    if (known) {
      const message = (err.code && fastifyMessages[err.code]) ?? err.message;
      return reply
        .status(known.status)
        .send({ error: known.code, message, ...(known.status === 400 ? { field: 'body' } : {}) });
    }
    if (err.statusCode === 429) return reply.status(429).send({ error: 'rate_limited', message: err.message });
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      return reply.status(err.statusCode).send({ error: 'invalid_request', message: err.message });
    }
    request.log.error({ err }, 'unhandled error');
    return reply.status(500).send({ error: 'internal_error', message: 'Something went wrong on the server.' });
  });
  app.setNotFoundHandler((request, reply) => {
    if (serveSpa && (request.method === 'GET' || request.method === 'HEAD') && serveSpa(request.url)) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply
      .status(404)
      .send({ error: 'not_found', message: `No route ${request.method} ${request.url.split('?')[0]}.` });
  });
}
