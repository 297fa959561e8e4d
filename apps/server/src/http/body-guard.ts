import { formatPath, inspectJson, MAX_JSON_DEPTH, type JsonProblem } from '@koma/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { invalidRequest } from './errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Top-level body fields holding saved documents: their text is repaired by the document codec (which reports
     * it) instead of refused here. Their depth is still limited.
     */
    documentFields?: readonly string[];
  }
}

function describe(problem: JsonProblem, where: string): string {
  const path = formatPath(problem.path) || where;
  if (problem.kind === 'too_deep') return `${path}: nested deeper than ${MAX_JSON_DEPTH} levels`;
  return problem.inKey ? `${path}: a field name ${problem.reason}` : `${path}: ${problem.reason}`;
}

/** Refuses, naming the field, a value nested past the limit or a string that the two databases would store apart. */
export function checkJsonValue(value: unknown, where: string, documentFields: readonly string[] = []): void {
  const [problem] = inspectJson(value, { maxDepth: MAX_JSON_DEPTH, text: true, skipTextUnder: documentFields });
  if (!problem) return;
  // A bad string stops the walk early: make sure nothing deeper hides behind it.
  const deep = problem.kind === 'bad_text' ? inspectJson(value, { maxDepth: MAX_JSON_DEPTH })[0] : undefined;
  throw invalidRequest(describe(deep ?? problem, where));
}

/**
 * Every JSON body is parsed, then walked without recursion before any route sees it: nesting past 64 levels is
 * refused with its path (zod, JSON.stringify and our own walkers all recurse, and a 150 KB body can nest
 * 75,000 deep); so are NUL characters and lone surrogates in any text, which PostgreSQL refuses or rewrites
 * while SQLite keeps them. Query strings get the same text check. One behaviour on every route and database.
 */
export function installBodyGuard(app: FastifyInstance): void {
  const { onProtoPoisoning, onConstructorPoisoning } = app.initialConfig;
  const parseJson = app.getDefaultJsonParser(onProtoPoisoning ?? 'error', onConstructorPoisoning ?? 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string' },
    (request: FastifyRequest, body: string | Buffer, done: (err: Error | null, body?: unknown) => void) => {
      void parseJson(request, String(body), (error: Error | null, value?: unknown) => {
        if (error) {
          done(error);
          return;
        }
        try {
          checkJsonValue(value, 'body', request.routeOptions.config.documentFields);
          done(null, value);
        } catch (refusal) {
          done(refusal as Error);
        }
      });
    },
  );
  app.addHook('preValidation', (request, _reply, done) => {
    try {
      if (request.query && typeof request.query === 'object') checkJsonValue(request.query, 'query');
      if (request.params && typeof request.params === 'object') checkJsonValue(request.params, 'params');
      done();
    } catch (refusal) {
      done(refusal as Error);
    }
  });
}
