import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * The app's Content-Security-Policy. Scripts only from this origin (the Vite build has no inline script), which may
 * compile WebAssembly ('wasm-unsafe-eval': the export's blend kernel; it allows no eval of JavaScript); styles
 * from this origin (React sets inline styles through the CSSOM, which CSP does not govern); images, media and
 * fetches also from data: and blob: URLs (inline results, object URLs of exports and uploads); workers from this
 * origin or blob:; fonts from this origin (Noto Sans JP slices) or data:. Nothing may frame the app, and forms post
 * only here.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "media-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self' data: blob:",
  "worker-src 'self' blob:",
  "manifest-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The API documentation page (@fastify/swagger-ui, /api/docs) writes inline styles; it gets the same policy with
 * inline styles allowed. Scripts stay 'self' only.
 */
export const DOCS_CONTENT_SECURITY_POLICY = CONTENT_SECURITY_POLICY.replace(
  "style-src 'self'",
  "style-src 'self' 'unsafe-inline'",
);

/** HSTS for a year once a request has come over HTTPS. */
const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * Browser-grade headers on every response, including the job streams that write their own head (so they are set on
 * the raw response, which Node merges into any later writeHead): the CSP above, nosniff, no framing, no referrer
 * to other sites, resources readable by this origin only, and HSTS when the request came over HTTPS (as Fastify
 * reads it, honouring TRUST_PROXY).
 */
export function installSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    const res = reply.raw;
    const docs = request.url === '/api/docs' || request.url.startsWith('/api/docs/');
    res.setHeader('content-security-policy', docs ? DOCS_CONTENT_SECURITY_POLICY : CONTENT_SECURITY_POLICY);
    res.setHeader('x-content-type-options', 'nosniff');
    res.setHeader('x-frame-options', 'DENY');
    res.setHeader('referrer-policy', 'same-origin');
    res.setHeader('cross-origin-resource-policy', 'same-origin');
    res.setHeader('cross-origin-opener-policy', 'same-origin');
    res.setHeader('permissions-policy', 'camera=(), microphone=(), geolocation=(), payment=()');
    if (isHttps(request)) res.setHeader('strict-transport-security', HSTS);
  });
}

/** True when the request came over HTTPS: directly, or through a trusted proxy's X-Forwarded-Proto. */
export function isHttps(request: FastifyRequest): boolean {
  return request.protocol === 'https';
}
