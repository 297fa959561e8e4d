// Which keys belong to the focused control and which to the editor's shortcuts (editor.md §2: shortcuts are ignored
// while a text input has focus). A slider or a button keeps only the keys it acts on; everything else still reaches
// the editor, so Ctrl+Z works right after moving a slider.

/** What matters about the focused element, read once from the DOM (plain data, so the rules can be unit-tested). */
export interface FocusedControl {
  /** Upper-case tag name, as the DOM gives it. */
  tag: string;
  /** An input's type. */
  type?: string;
  editable?: boolean;
  role?: string | null;
  /** Inside an open dialog, or anywhere while a modal dialog is open. */
  inDialog?: boolean;
}

export function controlOf(target: EventTarget | null): FocusedControl | null {
  if (typeof Element === 'undefined' || !(target instanceof Element)) return null;
  return {
    tag: target.tagName,
    ...(target instanceof HTMLInputElement ? { type: target.type } : {}),
    editable: target instanceof HTMLElement && target.isContentEditable,
    role: target.getAttribute('role'),
    // A modal owns the keyboard even when focus has left it (a click on its text moves focus to the body).
    inDialog: target.closest('dialog[open]') !== null || target.ownerDocument.querySelector('dialog:modal') !== null,
  };
}

/** Input types that take no typed text. */
const NON_TEXT_INPUTS = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'color', 'range', 'file', 'image']);
const ARROWS = new Set(['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown']);
const SLIDER_KEYS = new Set([...ARROWS, 'Home', 'End', 'PageUp', 'PageDown']);
const ACTIVATE = new Set([' ', 'Enter']);

/** A control that takes typed characters: text and number fields, text areas and editable content. */
export function isTextEntry(control: FocusedControl | null): boolean {
  if (!control) return false;
  if (control.editable || control.tag === 'TEXTAREA') return true;
  return control.tag === 'INPUT' && !NON_TEXT_INPUTS.has(control.type ?? 'text');
}

/** True when the focused control acts on this key itself: a slider's arrows, a button's Space, a list's arrows. */
export function controlOwnsKey(control: FocusedControl | null, key: string, modified: boolean): boolean {
  if (!control || modified) return false;
  if (control.tag === 'INPUT' && (control.type === 'range' || control.type === 'radio')) return SLIDER_KEYS.has(key);
  if (control.tag === 'SELECT') return ARROWS.has(key) || ACTIVATE.has(key);
  if (control.role === 'tab' || control.role === 'menuitem' || control.role === 'option') {
    return ARROWS.has(key) || ACTIVATE.has(key);
  }
  const pressable =
    control.tag === 'BUTTON' ||
    control.tag === 'A' ||
    control.tag === 'SUMMARY' ||
    (control.tag === 'INPUT' && NON_TEXT_INPUTS.has(control.type ?? ''));
  return pressable && ACTIVATE.has(key);
}

/** Whether a key press leaves the editor's shortcuts alone. */
export function shortcutsStandAside(
  control: FocusedControl | null,
  key: string,
  mods: { ctrl?: boolean; meta?: boolean; alt?: boolean },
): boolean {
  return (
    isTextEntry(control) || !!control?.inDialog || controlOwnsKey(control, key, !!(mods.ctrl || mods.meta || mods.alt))
  );
}
