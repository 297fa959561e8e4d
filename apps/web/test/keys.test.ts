import { describe, expect, it } from 'vitest';
import { controlOwnsKey, isTextEntry, shortcutsStandAside, type FocusedControl } from '../src/editor/keys.ts';

const input = (type: string): FocusedControl => ({ tag: 'INPUT', type });

describe('which keys the focused control keeps (issue 16: shortcuts after a slider)', () => {
  it('treats only typing controls as text entry', () => {
    for (const type of ['text', 'number', 'search', 'email', 'password', 'url'])
      expect(isTextEntry(input(type))).toBe(true);
    expect(isTextEntry({ tag: 'TEXTAREA' })).toBe(true);
    expect(isTextEntry({ tag: 'DIV', editable: true })).toBe(true);
    for (const type of ['range', 'checkbox', 'radio', 'button', 'color', 'file'])
      expect(isTextEntry(input(type))).toBe(false);
    expect(isTextEntry({ tag: 'SELECT' })).toBe(false);
    expect(isTextEntry({ tag: 'BUTTON' })).toBe(false);
    expect(isTextEntry(null)).toBe(false);
  });

  it('lets a slider keep its arrows but not Ctrl+Z or the tool keys', () => {
    const slider = input('range');
    expect(shortcutsStandAside(slider, 'ArrowRight', {})).toBe(true);
    expect(shortcutsStandAside(slider, 'Home', {})).toBe(true);
    expect(shortcutsStandAside(slider, 'z', { ctrl: true })).toBe(false);
    expect(shortcutsStandAside(slider, 'z', { meta: true })).toBe(false);
    expect(shortcutsStandAside(slider, '1', {})).toBe(false);
    expect(shortcutsStandAside(slider, 'g', {})).toBe(false);
  });

  it('lets a button or checkbox keep Space and Enter only', () => {
    for (const control of [{ tag: 'BUTTON' }, input('checkbox'), { tag: 'A' }]) {
      expect(controlOwnsKey(control, ' ', false)).toBe(true);
      expect(controlOwnsKey(control, 'Enter', false)).toBe(true);
      expect(controlOwnsKey(control, 'f', false)).toBe(false);
      expect(controlOwnsKey(control, 'ArrowLeft', false)).toBe(false);
    }
    expect(controlOwnsKey({ tag: 'SELECT' }, 'ArrowDown', false)).toBe(true);
    expect(controlOwnsKey({ tag: 'BUTTON', role: 'tab' }, 'ArrowRight', false)).toBe(true);
  });

  it('stands aside for text fields whatever the key, and inside an open dialog', () => {
    expect(shortcutsStandAside(input('text'), 'z', { ctrl: true })).toBe(true);
    expect(shortcutsStandAside(input('number'), '1', {})).toBe(true);
    expect(shortcutsStandAside({ tag: 'BUTTON', inDialog: true }, 'f', {})).toBe(true);
    expect(shortcutsStandAside(null, 'f', {})).toBe(false);
  });
});
