import { describe, expect, it, vi } from 'vitest';
import { Autosave, addImage, type SaveFunction } from '../src/index.ts';
import { TestDriver } from './driver.ts';

// Issue 14 item 2: a save the server refuses (4xx) is never sent again as it is. The reason is kept for the user;
// a new edit makes a new version, which gets one more try.

function fakeTimers() {
  let callback: (() => void) | null = null;
  return {
    timers: { setInterval: (cb: () => void) => ((callback = cb), 1), clearInterval: () => (callback = null) },
    tick: () => callback?.(),
  };
}

const box = { x: 0, y: 0, size: { width: 10, height: 10 } };

describe('autosave after a refusal', () => {
  it('does not resend the refused version on later ticks, says why, and tries again after an edit', async () => {
    const d = new TestDriver('INFINITE');
    const save = vi.fn<SaveFunction>(() => Promise.resolve({ refused: 'name is too long' }));
    const clock = fakeTimers();
    const autosave = new Autosave(d.editor, save, clock.timers);
    autosave.start();
    d.editor.execute(addImage, { parentId: d.root, transform: box, imageId: 'img' });
    clock.tick();
    await autosave.idle();
    expect(autosave.status).toBe('refused');
    expect(autosave.refusedReason).toBe('name is too long');
    for (let i = 0; i < 5; i++) {
      clock.tick();
      await autosave.saveNow();
    }
    expect(save).toHaveBeenCalledTimes(1);
    expect(d.editor.dirty).toBe(true);

    save.mockImplementation(() => Promise.resolve(true));
    d.editor.execute(addImage, { parentId: d.root, transform: box, imageId: 'img' });
    expect(autosave.status).toBe('dirty');
    clock.tick();
    await autosave.idle();
    expect(save).toHaveBeenCalledTimes(2);
    expect(autosave.status).toBe('saved');
  });

  it('a stale answer (newer version on the server, being fetched) leaves the work unsaved but is no failure', async () => {
    const d = new TestDriver('INFINITE');
    const autosave = new Autosave(d.editor, () => Promise.resolve('stale' as const), fakeTimers().timers);
    d.editor.execute(addImage, { parentId: d.root, transform: box, imageId: 'img' });
    await autosave.saveNow();
    expect(autosave.status).toBe('dirty');
    expect(d.editor.dirty).toBe(true);
  });
});
