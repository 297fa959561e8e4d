// The app's routes as data, matched by a pure function so the table can be unit-tested without a browser.

export type Route =
  | { name: 'root' }
  | { name: 'signin' }
  | { name: 'signup' }
  | { name: 'dashboard' }
  | { name: 'editor'; workspaceId: string }
  | { name: 'flow'; variationId: string }
  | { name: 'engineStatus' }
  | { name: 'notFound'; path: string };

/** Routes that need a signed-in user; the rest are public. */
export function requiresSession(route: Route): boolean {
  return (
    route.name === 'dashboard' || route.name === 'editor' || route.name === 'flow' || route.name === 'engineStatus'
  );
}

function segment(raw: string): string | null {
  try {
    const value = decodeURIComponent(raw);
    return value === '' ? null : value;
  } catch {
    return null; // malformed %-escape
  }
}

export function matchRoute(pathname: string): Route {
  // Trailing slashes are forgiven: /dashboard/ is /dashboard.
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (path === '' || path === '/') return { name: 'root' };
  if (path === '/signin') return { name: 'signin' };
  if (path === '/signup') return { name: 'signup' };
  if (path === '/dashboard') return { name: 'dashboard' };
  if (path === '/admin/engines') return { name: 'engineStatus' };
  const editor = /^\/(?:dashboard\/)?editor\/([^/]+)$/.exec(path);
  if (editor?.[1]) {
    const workspaceId = segment(editor[1]);
    if (workspaceId) return { name: 'editor', workspaceId };
  }
  const flow = /^\/flow\/([^/]+)$/.exec(path);
  if (flow?.[1]) {
    const variationId = segment(flow[1]);
    if (variationId) return { name: 'flow', variationId };
  }
  return { name: 'notFound', path: pathname };
}

export const paths = {
  signin: (next?: string) => (next ? `/signin?next=${encodeURIComponent(next)}` : '/signin'),
  signup: (next?: string) => (next ? `/signup?next=${encodeURIComponent(next)}` : '/signup'),
  dashboard: () => '/dashboard',
  editor: (workspaceId: string) => `/editor/${encodeURIComponent(workspaceId)}`,
  flow: (variationId: string) => `/flow/${encodeURIComponent(variationId)}`,
  engineStatus: () => '/admin/engines',
};

/**
 * Where to go after signing in: the `next` parameter if it is a path inside this app, else the dashboard.
 * Refusing absolute and protocol-relative URLs keeps the parameter from becoming an open redirect.
 */
export function safeNext(search: string): string {
  const next = new URLSearchParams(search).get('next');
  if (next && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\')) return next;
  return paths.dashboard();
}
