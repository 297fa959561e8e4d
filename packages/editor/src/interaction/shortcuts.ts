import { BRUSH_SIZE_STEP, DEFAULT_PANEL_SIZES, type LayerType } from '@koma/domain';
import { TOOLS, clampBrush } from '../ui/ui-state.ts';
import { addPanel, rearrangeLayer, removeLayers } from '../commands/layers.ts';
import { scaleLayer } from '../commands/transform.ts';
import { kindOf, registeredKinds } from '../kinds/lookup.ts';
import type { InteractionHost } from './controller.ts';

export interface KeyInput {
  key: string;
  ctrl?: boolean;
  meta?: boolean;
  shift?: boolean;
  alt?: boolean;
  /** True while a text input, textarea or contenteditable has focus: shortcuts stand aside. */
  inTextInput?: boolean;
}

/**
 * Why a shortcut did nothing; the screen says it in the user's language (issue 16: no command fails silently).
 * 'needsKind' comes with the layer types whose own key it was (`m`: a panel).
 */
export type ShortcutRefusal = 'noSelection' | 'needsKind' | 'nothingToUndo' | 'nothingToRedo';

/** Shortcut effects that need the screen around the editor (generation, view animation, image loading). */
export interface ShortcutActions {
  /** A key whose command cannot run now: tell the user why. */
  refused?(reason: ShortcutRefusal, types?: readonly LayerType[]): void;
  generateAtPointer(): void;
  generateFromPoseOrSketch(): void;
  estimatePose(): void;
  recenter(): void;
  zoomStep(direction: 1 | -1): void;
  cycleVariation(step: 1 | -1): void;
}

/** Applies the shortcut table of editor.md §2; returns true when the key was used. */
export function handleKeyDown(input: KeyInput, host: InteractionHost, actions: ShortcutActions): boolean {
  // Shift alone changes what the Panel tool's click would do; its preview follows at once, without a pointer move.
  if (input.key === 'Shift') {
    if (!host.ui.state.shiftHeld) host.ui.update({ shiftHeld: true });
    return false;
  }
  if (input.inTextInput) return false;
  const { editor, ui } = host;
  const mod = !!(input.ctrl || input.meta);
  const key = input.key.length === 1 ? input.key.toLowerCase() : input.key;
  const selection = ui.state.selection;

  const refuse = (reason: ShortcutRefusal, types?: readonly LayerType[]) => (actions.refused?.(reason, types), true);
  if (mod) {
    if ((key === 'z' && input.shift) || key === 'y') return editor.redo() || refuse('nothingToRedo');
    if (key === 'z') return editor.undo() || refuse('nothingToUndo');
    if (key === 'd') return (ui.update({ selection: [] }), true);
    if (key === '-' || key === '=' || key === '+') {
      if (selection.length === 0) return refuse('noSelection');
      for (const id of selection) editor.execute(scaleLayer, { id, direction: key === '-' ? -1 : 1 });
      return true;
    }
    return false;
  }
  if (input.alt) return false;

  const toolIndex = Number(key) - 1;
  if (key.length === 1 && toolIndex >= 0 && toolIndex < TOOLS.length) {
    ui.update({ tool: TOOLS[toolIndex]! });
    return true;
  }
  // A kind's own one-key commands (`m`: a panel's border) act on each selected layer of that kind.
  const owners = registeredKinds().filter((k) => k.keys?.[key]);
  if (owners.length > 0) {
    let acted = false;
    for (const id of selection) {
      const node = editor.doc.layers[id];
      const command = node && kindOf(node).keys?.[key];
      if (command) {
        editor.execute(command, { id });
        acted = true;
      }
    }
    return (
      acted ||
      refuse(
        'needsKind',
        owners.map((k) => k.type),
      )
    );
  }
  switch (key) {
    case '[':
    case ']':
      ui.update((s) => ({ brushSize: clampBrush(s.brushSize + (key === ']' ? BRUSH_SIZE_STEP : -BRUSH_SIZE_STEP)) }));
      return true;
    case 'ArrowLeft':
    case 'ArrowRight':
      actions.cycleVariation(key === 'ArrowLeft' ? -1 : 1);
      return true;
    case 'f':
    case 'b':
      if (selection.length === 0) return refuse('noSelection');
      for (const id of selection) editor.execute(rearrangeLayer, { id, to: key === 'f' ? 'front' : 'back' });
      return true;
    case 'Backspace':
    case 'Delete':
      if (selection.length === 0) return refuse('noSelection');
      if (editor.execute(removeLayers, { ids: selection }).ok) ui.update({ selection: [] });
      return true;
    case ' ':
      ui.update({ panArmed: true });
      return true;
    case 'v':
      actions.generateFromPoseOrSketch();
      return true;
    case 'n': {
      const size = DEFAULT_PANEL_SIZES[0];
      const at = ui.state.pointer ?? { x: size.width / 2 + 110, y: size.height / 2 + 110 };
      const result = editor.execute(addPanel, {
        parentId: host.activeRoot(),
        transform: { x: at.x - size.width / 2, y: at.y - size.height / 2, size: { ...size } },
      });
      if (result.ok) ui.update({ selection: [result.value] });
      return true;
    }
    case 'c':
      actions.recenter();
      return true;
    case 'e':
      actions.estimatePose();
      return true;
    case '-':
    case '=':
    case '+':
      actions.zoomStep(key === '-' ? -1 : 1);
      return true;
    case 'g':
      actions.generateAtPointer();
      return true;
    case 'Escape':
      ui.update({ selection: [], editingTextId: null });
      return true;
    default:
      return false;
  }
}

/** Space released: panning is disarmed; Shift released: a split goes back to across. */
export function handleKeyUp(input: KeyInput, host: InteractionHost): void {
  if (input.key === ' ') host.ui.update({ panArmed: false });
  if (input.key === 'Shift' && host.ui.state.shiftHeld) host.ui.update({ shiftHeld: false });
}
