import { describe, expect, it } from 'vitest';
import { matchRoute, paths, requiresSession, safeNext } from '../src/router/routes.ts';

describe('matchRoute', () => {
  it('maps every route of the app', () => {
    expect(matchRoute('/')).toEqual({ name: 'root' });
    expect(matchRoute('/signin')).toEqual({ name: 'signin' });
    expect(matchRoute('/signup/')).toEqual({ name: 'signup' });
    expect(matchRoute('/dashboard')).toEqual({ name: 'dashboard' });
    expect(matchRoute('/admin/engines')).toEqual({ name: 'engineStatus' });
    expect(matchRoute('/editor/abc-123')).toEqual({ name: 'editor', workspaceId: 'abc-123' });
    expect(matchRoute('/dashboard/editor/abc-123')).toEqual({ name: 'editor', workspaceId: 'abc-123' });
    expect(matchRoute('/flow/var%201')).toEqual({ name: 'flow', variationId: 'var 1' });
  });

  it('treats malformed or incomplete addresses as not found', () => {
    expect(matchRoute('/editor/')).toEqual({ name: 'notFound', path: '/editor/' });
    expect(matchRoute('/editor/a/b')).toMatchObject({ name: 'notFound' });
    expect(matchRoute('/editor/%E0%A4%A')).toMatchObject({ name: 'notFound' });
    expect(matchRoute('/settings')).toMatchObject({ name: 'notFound' });
  });

  it('round-trips ids through paths.editor', () => {
    const id = 'weird/id?#';
    expect(matchRoute(paths.editor(id))).toEqual({ name: 'editor', workspaceId: id });
  });

  it('guards the private routes only', () => {
    expect(requiresSession({ name: 'dashboard' })).toBe(true);
    expect(requiresSession({ name: 'engineStatus' })).toBe(true);
    expect(requiresSession({ name: 'editor', workspaceId: 'x' })).toBe(true);
    expect(requiresSession({ name: 'flow', variationId: 'x' })).toBe(true);
    expect(requiresSession({ name: 'signin' })).toBe(false);
    expect(requiresSession({ name: 'notFound', path: '/x' })).toBe(false);
  });
});

describe('safeNext', () => {
  it('returns an in-app path from ?next=', () => {
    expect(safeNext('?next=%2Feditor%2Fw1')).toBe('/editor/w1');
  });
  it('refuses other origins so the parameter cannot become an open redirect', () => {
    expect(safeNext('?next=https%3A%2F%2Fevil.example')).toBe('/dashboard');
    expect(safeNext('?next=%2F%2Fevil.example')).toBe('/dashboard');
    expect(safeNext('?next=%2F%5Cevil.example')).toBe('/dashboard');
    expect(safeNext('')).toBe('/dashboard');
  });
});
