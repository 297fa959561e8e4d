import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { PublicUser } from '../repositories/users.ts';
import type { Accounts } from '../services/accounts.ts';
import { HttpError, unauthorized } from './errors.ts';

/** Name of the session cookie. */
export const SESSION_COOKIE = 'koma_session';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, or null; set for every /api request before its handler runs. */
    user: PublicUser | null;
  }
  interface FastifyContextConfig {
    /** The handler resolves `request.user` itself (in a query it needs anyway), so the hook skips it. */
    resolvesOwnSession?: boolean;
  }
}

/** The signed-in user of a request; throws 401 unauthorized when there is none. Routes call this first. */
export function requireUser(request: FastifyRequest): PublicUser {
  if (!request.user) throw unauthorized();
  return request.user;
}

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Resolves `request.user` from the session cookie, and refuses state-changing requests whose Origin
 * header names another site (CSRF). Requests without Origin are not from a browser page and pass;
 * the SameSite cookie covers old browsers.
 */
export function installAuth(app: FastifyInstance, accounts: Accounts, allowedOrigins: string[]): void {
  app.decorateRequest('user', null);
  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/api/')) return;
    if (!safeMethods.has(request.method)) {
      const origin = request.headers.origin;
      if (origin !== undefined && !originAllowed(origin, request, allowedOrigins)) {
        throw new HttpError(403, 'forbidden_origin', `Origin ${origin} may not change data here.`);
      }
    }
    if (request.routeOptions.config.resolvesOwnSession) return;
    const token = request.cookies[SESSION_COOKIE];
    if (token) request.user = await accounts.userForToken(token);
  });
}

function originAllowed(origin: string, request: FastifyRequest, allowed: string[]): boolean {
  if (allowed.includes(origin)) return true;
  const host = request.headers.host;
  if (!host) return false;
  try {
    const from = new URL(origin);
    // Same origin: the Origin's host equals the Host the browser sent (parsed alike, so :80 and :443 compare right).
    return from.host === new URL(`${from.protocol}//${host}`).host;
  } catch {
    return false;
  }
}
