import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { requireUser, SESSION_COOKIE } from '../http/auth.ts';
import type { ZodTypeProvider } from '../http/zod-provider.ts';
import type { NewSession } from '../services/accounts.ts';
import { zUser } from './schemas.ts';

const zCredentials = z.object({
  email: z.email().max(254),
  password: z.string().min(8, 'must be at least 8 characters').max(1024),
});
const zUserReply = z.object({ user: zUser });

/** Sign up, sign in, sign out and "who am I". */
export function authRoutes(app: FastifyInstance): void {
  const { accounts, config } = app.koma;
  const api = app.withTypeProvider<ZodTypeProvider>();

  const setCookie = (reply: FastifyReply, session: NewSession) =>
    reply.setCookie(SESSION_COOKIE, session.token, {
      httpOnly: true,
      sameSite: 'lax',
      secure: config.cookieSecure,
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
      const session = await accounts.signUp(request.body);
      setCookie(reply, session);
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
      config: { rateLimit: { max: config.signinRateLimit.max, timeWindow: config.signinRateLimit.windowMs } },
    },
    async (request, reply) => {
      const session = await accounts.signIn(request.body.email, request.body.password);
      setCookie(reply, session);
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
}
