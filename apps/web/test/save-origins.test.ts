import { describe, expect, it } from 'vitest';
import { SaveOrigins } from '../src/editor/sync/save-origins.ts';

describe('where a version saved elsewhere came from', () => {
  it('a tab heard over the BroadcastChannel is another tab; one only the server named is another device', () => {
    const origins = new SaveOrigins();
    origins.heard(2, 'tab-b', true);
    origins.heard(2, 'tab-b', false);
    origins.heard(3, 'phone', false);
    expect(origins.of(2)).toBe('tab');
    expect(origins.of(3)).toBe('device');
  });

  it('a tab first named by the server and later heard over the channel is another tab', () => {
    const origins = new SaveOrigins();
    origins.heard(5, 'tab-c', false);
    expect(origins.of(5)).toBe('device');
    origins.heard(6, 'tab-c', true);
    expect(origins.of(5)).toBe('tab');
  });

  it('a revision heard without its tab (the stream catching up) or never heard is unknown', () => {
    const origins = new SaveOrigins();
    origins.heard(7, null, false);
    expect(origins.of(7)).toBeNull();
    expect(origins.of(8)).toBeNull();
    // A later event naming the tab fills it in.
    origins.heard(7, 'laptop', false);
    expect(origins.of(7)).toBe('device');
  });
});
