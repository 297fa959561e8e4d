import { useEffect, useRef } from 'react';
import {
  clipLayer,
  duplicateLayer,
  rearrangeLayer,
  removeLayers,
  setLocked,
  setVisibility,
  splitPanel,
  togglePanelBorder,
  unclipLayer,
} from '@koma/editor';
import type { EditorSession } from './session.ts';
import { useT } from '../i18n/index.ts';

export interface ContextMenuState {
  x: number;
  y: number;
  layerId: string;
}

/** The layer menu opened by a right click (or the menu key) on the canvas; arrows move, Enter picks, Escape closes. */
export function ContextMenu({
  session,
  menu,
  onClose,
}: {
  session: EditorSession;
  menu: ContextMenuState;
  onClose: () => void;
}) {
  const t = useT();
  const ref = useRef<HTMLDivElement>(null);
  const node = session.editor.doc.layers[menu.layerId];
  useEffect(() => {
    ref.current?.querySelector('button')?.focus();
    const away = (e: PointerEvent) => {
      if (!ref.current?.contains(e.target as Node)) onClose();
    };
    window.addEventListener('pointerdown', away, true);
    return () => window.removeEventListener('pointerdown', away, true);
  }, [onClose]);
  if (!node || node.parent === null) return null;
  const parent = session.editor.doc.layers[node.parent];
  const index = parent?.children.indexOf(node.id) ?? -1;
  const below = index > 0 ? parent?.children[index - 1] : undefined;
  const run = (action: () => unknown) => () => {
    action();
    onClose();
  };
  const e = session.editor;
  const items: [string, () => unknown, string][] = [
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
  if (node.clipTarget) items.push([t('editor.layers.unclip'), () => e.execute(unclipLayer, { id: node.id }), 'unclip']);
  else if (below)
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
  }
  items.push([
    t('editor.layers.remove'),
    () => e.execute(removeLayers, { ids: [node.id] }) && session.ui.update({ selection: [] }),
    'remove',
  ]);
  return (
    <div
      ref={ref}
      className="context-menu"
      role="menu"
      style={{ left: menu.x, top: menu.y }}
      data-testid="context-menu"
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
      {items.map(([label, action, id]) => (
        <button key={id} type="button" role="menuitem" data-testid={`menu-${id}`} onClick={run(action)}>
          {label}
        </button>
      ))}
    </div>
  );
}
