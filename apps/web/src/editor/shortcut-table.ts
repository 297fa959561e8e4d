// The shortcut sheet's rows: every key of editor.md §2's table, in its order, then the editor's own additions.
// A key is a list of alternatives; each alternative is a list of keys pressed together. Names in `keys.*` are
// translated; anything else is shown as written.

export type KeyCombo = readonly string[];

export interface ShortcutRow {
  keys: readonly KeyCombo[];
  /** i18n key under editor.shortcuts.effects. */
  effect: string;
}

export const SHORTCUT_ROWS: readonly ShortcutRow[] = [
  { keys: [['1'], ['2'], ['3'], ['4'], ['5'], ['6']], effect: 'tools' },
  { keys: [['['], [']']], effect: 'brush' },
  { keys: [['keys.left'], ['keys.right']], effect: 'variations' },
  { keys: [['F']], effect: 'front' },
  { keys: [['B']], effect: 'back' },
  { keys: [['keys.backspace'], ['keys.delete']], effect: 'remove' },
  { keys: [['keys.space']], effect: 'pan' },
  { keys: [['keys.ctrl', 'Z']], effect: 'undo' },
  { keys: [['keys.ctrl', 'keys.shift', 'Z']], effect: 'redo' },
  { keys: [['keys.ctrl', 'D']], effect: 'deselect' },
  { keys: [['V']], effect: 'poseGenerate' },
  { keys: [['N']], effect: 'panel' },
  { keys: [['M']], effect: 'border' },
  { keys: [['C']], effect: 'recentre' },
  { keys: [['E']], effect: 'estimate' },
  { keys: [['-'], ['=']], effect: 'zoom' },
  {
    keys: [
      ['keys.ctrl', '-'],
      ['keys.ctrl', '='],
    ],
    effect: 'scale',
  },
  { keys: [['G']], effect: 'generate' },
  // Not in the spec's table: the editor's own keys.
  { keys: [['Esc']], effect: 'escape' },
  {
    keys: [
      ['keys.alt', 'keys.up'],
      ['keys.alt', 'keys.down'],
    ],
    effect: 'reorder',
  },
  { keys: [['?']], effect: 'sheet' },
];

/** The key shown in a tool button's tooltip: tools are picked with 1 to 6 in the spec's order. */
export function toolKey(index: number): string {
  return String(index + 1);
}
