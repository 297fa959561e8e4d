import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import {
  clipLayer,
  clipPanelChoices,
  clipToPanel,
  duplicateLayer,
  rearrangeLayer,
  removeLayers,
  setLocked,
  setVisibility,
  splitPanel,
  togglePanelBorder,
  bleedPanel,
  unclipLayer,
  linkBubbles,
  unlinkBubbles,
  flipLayers,
  rotateLayers,
} from '@koma/editor';
import type { EditorSession } from './session.ts';
import { useDoc } from './hooks.ts';
import '../setup/i18n.ts';
import { useT } from '../i18n/index.ts';

export interface ContextMenuState {
  x: number;
  y: number;
  layerId: string;
}

/** A menu entry: its words, what it does, and the id its test hook is named after. */
export type MenuItem = [label: string, action: () => unknown, id: string, keepOpen?: boolean];

/** The layer menu opened by a right click (or the menu key) on the canvas; arrows move, Enter picks, Escape closes. */
/** Layer types that turn and flip (as the layer tab's appearance fields). */
const TURNING = new Set(['IMAGE', 'TEXT', 'POSE']);

export function ContextMenu({
  session,
  menu,
  onClose,
  extra = [],
  testId = 'context-menu',
  itemPrefix = 'menu-',
}: {
  session: EditorSession;
  menu: ContextMenuState;
  onClose: () => void;
  /** Entries before the layer actions (the layer list adds rename and up/down). */
  extra?: MenuItem[];
  testId?: string;
  itemPrefix?: string;
}) {
  const t = useT();
  const ref = useRef<HTMLDivElement>(null);
  const [otherPanels, setOtherPanels] = useState(false);
  // Subscribed: an undo or a save from elsewhere that takes the layer away closes the menu.
  const node = useDoc(session).layers[menu.layerId];
  // Kept inside the window: a long press near the bottom or right edge of a small screen would cut the menu off.
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const r = el.getBoundingClientRect();
    el.style.left = `${Math.max(4, Math.min(menu.x, window.innerWidth - r.width - 4))}px`;
    el.style.top = `${Math.max(4, Math.min(menu.y, window.innerHeight - r.height - 4))}px`;
  }, [menu.x, menu.y]);
  useEffect(() => {
    ref.current?.querySelector('button')?.focus();
    const away = (e: PointerEvent) => {
      const target = e.target as Element | null;
      // The button that opened the menu closes it itself (a second press would otherwise reopen it).
      if (target?.closest?.('[aria-haspopup="menu"][aria-expanded="true"]')) return;
      if (!ref.current?.contains(target)) onClose();
    };
    window.addEventListener('pointerdown', away, true);
    return () => window.removeEventListener('pointerdown', away, true);
  }, [onClose]);
  if (!node || node.parent === null) return null;
  const parent = session.editor.doc.layers[node.parent];
  const index = parent?.children.indexOf(node.id) ?? -1;
  const below = index > 0 ? parent?.children[index - 1] : undefined;
  const run = (action: () => unknown, keepOpen?: boolean) => () => {
    action();
    if (!keepOpen) onClose();
  };
  const e = session.editor;
  const items: MenuItem[] = [
    ...extra,
    [t('editor.menu.front'), () => e.execute(rearrangeLayer, { id: node.id, to: 'front' }), 'front'],
    [t('editor.menu.back'), () => e.execute(rearrangeLayer, { id: node.id, to: 'back' }), 'back'],
    [t('editor.layers.duplicate'), () => e.execute(duplicateLayer, { id: node.id }), 'duplicate'],
    [
      node.locked ? t('editor.layers.unlock') : t('editor.layers.lock'),
      () => e.execute(setLocked, { ids: [node.id], locked: !node.locked }),
      'lock',
    ],
    [
      node.visible ? t('editor.layers.hide') : t('editor.layers.show'),
      () => e.execute(setVisibility, { ids: [node.id], visible: !node.visible }),
      'visibility',
    ],
  ];
  // The 90° turns and flips of the layer tab, here too for images, text and poses (issue 17).
  if (TURNING.has(node.type) && !node.locked) {
    items.push(
      [t('editor.layer.rotateLeft'), () => e.execute(rotateLayers, { ids: [node.id], by: -90 }), 'rotate-left'],
      [t('editor.layer.rotateRight'), () => e.execute(rotateLayers, { ids: [node.id], by: 90 }), 'rotate-right'],
      [t('editor.layer.flipH'), () => e.execute(flipLayers, { ids: [node.id], axis: 'horizontal' }), 'flip-h'],
      [t('editor.layer.flipV'), () => e.execute(flipLayers, { ids: [node.id], axis: 'vertical' }), 'flip-v'],
    );
  }
  if (node.clipTarget) items.push([t('editor.layers.unclip'), () => e.execute(unclipLayer, { id: node.id }), 'unclip']);
  else if (node.type === 'IMAGE') items.push(...clipPanelItems());
  // Panels never clip: a panel is what art is clipped to.
  else if (below && node.type !== 'PANEL')
    items.push([t('editor.layers.clip'), () => e.execute(clipLayer, { id: node.id, targetId: below }), 'clip']);
  if (node.type === 'PANEL') {
    items.push([
      t('editor.layer.splitH'),
      () => e.execute(splitPanel, { id: node.id, direction: 'horizontal', at: 0.5 }),
      'split-h',
    ]);
    items.push([
      t('editor.layer.splitV'),
      () => e.execute(splitPanel, { id: node.id, direction: 'vertical', at: 0.5 }),
      'split-v',
    ]);
    items.push([t('editor.layer.border'), () => e.execute(togglePanelBorder, { id: node.id }), 'border']);
    items.push([t('setup.bleedPanel'), () => e.execute(bleedPanel, { id: node.id }), 'bleed']);
  }
  if (node.type === 'TEXT' && node.data.backgroundType === 'SPEECH_BUBBLE') {
    // Two speech bubbles selected, this one among them: join them; a joined one: part them.
    const selected = session.ui.state.selection;
    const other =
      selected.length === 2 && selected.includes(node.id) ? selected.find((id) => id !== node.id) : undefined;
    const partner = other ? session.editor.doc.layers[other] : undefined;
    if (
      partner?.type === 'TEXT' &&
      partner.data.backgroundType === 'SPEECH_BUBBLE' &&
      node.data.linkedBubbleId !== other
    )
      items.push([
        t('editor.layer.link'),
        () => e.execute(linkBubbles, { ids: [node.id, partner.id] }),
        'link-bubbles',
      ]);
    if (node.data.linkedBubbleId !== null)
      items.push([t('editor.layer.unlink'), () => e.execute(unlinkBubbles, { id: node.id }), 'unlink-bubbles']);
  }
  items.push([
    t('editor.layers.remove'),
    () => e.execute(removeLayers, { ids: [node.id] }) && session.ui.update({ selection: [] }),
    'remove',
  ]);
  /** Images clip to the panel they overlap most; the others they overlap are one step further (a submenu). */
  function clipPanelItems(): MenuItem[] {
    const [best, ...others] = clipPanelChoices(e.doc, session.activeRoot(), node!.id);
    if (!best) return [];
    const clip = (panelId: string) => () => e.execute(clipToPanel, { id: node!.id, panelId });
    const named = (panelId: string) => {
      const panel = e.doc.layers[panelId];
      return t('editor.layers.panelN', { n: panel?.type === 'PANEL' ? panel.data.position : '?' });
    };
    const out: MenuItem[] = [[`${t('editor.layers.clipPanel')} (${named(best)})`, clip(best), 'clip-panel']];
    if (others.length === 0) return out;
    if (!otherPanels) {
      out.push([`${t('editor.layers.clipPanelOther')} ▸`, () => setOtherPanels(true), 'clip-panel-other', true]);
      return out;
    }
    for (const id of others) out.push([`\u2003${named(id)}`, clip(id), `clip-panel-${id}`]);
    return out;
  }
  return (
    <div
      ref={ref}
      className="context-menu"
      role="menu"
      style={{ left: menu.x, top: menu.y }}
      data-testid={testId}
      onKeyDown={(event) => {
        const buttons = [...(ref.current?.querySelectorAll('button') ?? [])];
        const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
        if (event.key === 'Escape') onClose();
        else if (event.key === 'ArrowDown') buttons[(at + 1) % buttons.length]?.focus();
        else if (event.key === 'ArrowUp') buttons[(at - 1 + buttons.length) % buttons.length]?.focus();
        else return;
        event.preventDefault();
        event.stopPropagation();
      }}
    >
      {items.map(([label, action, id, keepOpen]) => (
        <button
          key={id}
          type="button"
          role="menuitem"
          data-testid={`${itemPrefix}${id}`}
          aria-haspopup={keepOpen ? 'menu' : undefined}
          onClick={run(action, keepOpen)}
        >
          {label}
        </button>
      ))}
    </div>
  );
}
