import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requireUser, SESSION_COOKIE } from '../http/auth.ts';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { isHttps } from '../http/security-headers.ts';
import type { NewSession } from '../services/accounts.ts';
import { normaliseEmail } from '../services/accounts.ts';
import { HttpError } from '../http/errors.ts';
import { zUser } from './schemas.ts';

// Length and commonness are checked by the password policy (services/password-policy.ts), which names the rule.
const zCredentials = z.object({
  email: z.email().max(254),
  password: z.string().min(1, 'is required').max(1024),
});
const zUserReply = z.object({ user: zUser });

/** Sign up, sign in, sign out and "who am I". */
export function authRoutes(app: FastifyInstance): void {
  const { accounts, config, signinLimiter } = app.koma;
  const api = app.withTypeProvider<ZodTypeProvider>();

  // Secure whenever the request came over HTTPS (directly, or per X-Forwarded-Proto when TRUST_PROXY is on), so
  // the cookie never travels in clear once the site is served over TLS; COOKIE_SECURE forces it on always.
  const setCookie = (request: FastifyRequest, reply: FastifyReply, session: NewSession) =>
    reply.setCookie(SESSION_COOKIE, session.token, {
      httpOnly: true,
      sameSite: 'lax',
      secure: config.cookieSecure || isHttps(request),
      path: '/',
      expires: session.expiresAt,
    });

  api.post(
    '/api/auth/signup',
    {
      schema: { body: zCredentials.extend({ name: z.string().max(100).optional() }), response: { 201: zUserReply } },
      config: { rateLimit: { max: config.signinRateLimit.max, timeWindow: config.signinRateLimit.windowMs } },
    },
    async (request, reply) => {
      const session = await accounts.signUp(request.body, request.cookies[SESSION_COOKIE]);
      setCookie(request, reply, session);
      return reply.status(201).send({ user: session.user });
    },
  );

  api.post(
    '/api/auth/signin',
    {
      schema: {
        body: z.object({ email: z.string().max(254), password: z.string().max(1024) }),
        response: { 200: zUserReply },
      },
    },
    async (request, reply) => {
      const email = normaliseEmail(request.body.email);
      try {
        await signinLimiter.admit(request.ip, email);
      } catch (err) {
        if (err instanceof HttpError && err.code === 'rate_limited') {
          reply.header('retry-after', String(err.extra.retryAfter));
        }
        throw err;
      }
      let session: NewSession;
      try {
        session = await accounts.signIn(email, request.body.password, request.cookies[SESSION_COOKIE]);
      } catch (err) {
        if (err instanceof HttpError && err.code === 'invalid_credentials') await signinLimiter.failed(email);
        throw err;
      }
      await signinLimiter.succeeded(email);
      setCookie(request, reply, session);
      return { user: session.user };
    },
  );

  api.post('/api/auth/signout', async (request, reply) => {
    const token = request.cookies[SESSION_COOKIE];
    if (token) await accounts.signOut(token);
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return reply.status(204).send();
  });

  api.get('/api/auth/me', { schema: { response: { 200: zUserReply } } }, (request) => ({ user: requireUser(request) }));

  // Not in the spec: "who, if anyone, is signed in", for the web app's first call. Signed out is an answer here, not
  // an error: GET /api/auth/me's 401 made the browser log a failed resource on every visit before sign-in.
  api.get('/api/auth/session', { schema: { response: { 200: z.object({ user: zUser.nullable() }) } } }, (request) => ({
    user: request.user ?? null,
  }));
}
