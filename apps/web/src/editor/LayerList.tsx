import { useLayoutEffect, useRef, useState } from 'react';
import { rearrangeLayer, renameLayer, setLocked, setVisibility, type LayerNode } from '@koma/editor';
import type { EditorSession } from './session.ts';
import { useDoc, useUi } from './hooks.ts';
import { useT } from '../i18n/index.ts';
import { Icon } from './Icon.tsx';
import { LayerThumb } from './LayerThumb.tsx';
import { ContextMenu, type MenuItem } from './ContextMenu.tsx';
import { useRowDrag } from './layer-drag.ts';
import './i18n-shell.ts';
import './layer-list.css';

type Translate = ReturnType<typeof useT>;

const DEFAULT_NAME = /^(Group|Image|Text|Panel|Pose|Sketch|Fill)(?: (\d+))?$/;

/** A default name ("Text 3") in the user's language ("テキスト 3"); names people chose are shown as they are. */
export function displayName(node: LayerNode, t: Translate): string {
  const match = DEFAULT_NAME.exec(node.name);
  if (!match || match[1]!.toUpperCase() !== node.type) return node.name || t(`editor.layers.types.${node.type}`);
  const type = t(`editor.layers.types.${node.type}`);
  return match[2] ? `${type} ${match[2]}` : type;
}

/**
 * The open page's layers, top first. Each row: a thumbnail, the whole name, and its actions in a menu (eye and lock
 * also appear on hover or focus). Rows reorder by dragging (a mouse anywhere on the row; a finger or pen by the
 * thumbnail, since a finger elsewhere scrolls the list) or with Alt+↑/↓, one undo step per move.
 */
export function LayerList({ session }: { session: EditorSession }) {
  const t = useT();
  const doc = useDoc(session);
  const selection = useUi(session, (s) => s.selection);
  useUi(session, (s) => s.activePage);
  const root = doc.layers[session.activeRoot()];
  const [renaming, setRenaming] = useState<string | null>(null);
  const [menu, setMenu] = useState<{ id: string; x: number; y: number } | null>(null);
  const list = useRef<HTMLOListElement>(null);
  const refocus = useRef<string | null>(null);
  const ids = root ? [...root.children].reverse() : [];

  const run = session.editor.execute.bind(session.editor);
  /** Moves a row to display position `to` (0 = top) as one command. */
  const moveRow = (id: string, to: number) => {
    const count = ids.length;
    const from = ids.indexOf(id);
    const target = Math.max(0, Math.min(count - 1, to));
    if (from < 0 || target === from) return;
    refocus.current = id;
    run(rearrangeLayer, { id, to: count - 1 - target });
  };
  const drag = useRowDrag(list, (id, gap) => moveRow(id, gap > ids.indexOf(id) ? gap - 1 : gap));

  // React moves rows by re-inserting their elements, which drops the focus: give it back to the moved row.
  useLayoutEffect(() => {
    const id = refocus.current;
    if (!id) return;
    refocus.current = null;
    list.current?.querySelector<HTMLButtonElement>(`[data-layer-id="${CSS.escape(id)}"] .layer-row__name`)?.focus();
  });

  if (!root) return null;
  const focusRow = (index: number) =>
    list.current?.querySelectorAll<HTMLButtonElement>('.layer-row__name')[index]?.focus();

  return (
    <section className="layer-list" aria-label={t('editor.layers.title')}>
      <h2 className="panel-title">{t('editor.layers.title')}</h2>
      {ids.length === 0 && <p className="muted layer-list__empty">{t('editor.layers.empty')}</p>}
      <ol
        className={`layer-list__items${drag.active ? ' layer-list__items--dragging' : ''}`}
        data-testid="layer-list"
        ref={list}
      >
        {ids.map((id, i) => {
          const node = doc.layers[id] as LayerNode;
          const selected = selection.includes(id);
          const name = displayName(node, t);
          const dropClass =
            drag.gap === null || drag.id === id
              ? ''
              : drag.gap === i
                ? ' layer-row--drop-before'
                : drag.gap === ids.length && i === ids.length - 1
                  ? ' layer-row--drop-after'
                  : '';
          return (
            <li
              key={id}
              className={`layer-row${selected ? ' layer-row--selected' : ''}${node.clipTarget ? ' layer-row--clipped' : ''}${node.visible ? '' : ' layer-row--hidden'}${drag.id === id ? ' layer-row--dragged' : ''}${dropClass}`}
              data-testid="layer-row"
              data-layer-id={id}
              data-layer-type={node.type}
              onPointerDown={(e) => drag.start(e, id)}
            >
              <span className="layer-row__thumb" data-testid="layer-thumb" data-drag-handle="true">
                <LayerThumb node={node} />
              </span>
              <span className="layer-row__text">
                {renaming === id ? (
                  <input
                    className="layer-row__rename"
                    autoFocus
                    defaultValue={node.name}
                    aria-label={t('editor.layers.rename')}
                    onFocus={(e) => e.currentTarget.select()}
                    onKeyDown={(e) => {
                      if (e.key === 'Enter') e.currentTarget.blur();
                      if (e.key === 'Escape') {
                        refocus.current = id;
                        setRenaming(null);
                      }
                    }}
                    onBlur={(e) => {
                      if (renaming === id && e.currentTarget.value.trim() !== node.name) {
                        run(renameLayer, { id, name: e.currentTarget.value });
                      }
                      refocus.current = id;
                      setRenaming(null);
                    }}
                  />
                ) : (
                  <button
                    type="button"
                    className="layer-row__name"
                    aria-pressed={selected}
                    title={name}
                    data-testid="layer-name"
                    onClick={(e) =>
                      session.ui.update({ selection: e.shiftKey ? [...new Set([...selection, id])] : [id] })
                    }
                    onDoubleClick={() => setRenaming(id)}
                    onKeyDown={(e) => {
                      const up = e.key === 'ArrowUp';
                      if (!up && e.key !== 'ArrowDown' && e.key !== 'F2') return;
                      e.preventDefault();
                      // These keys belong to the list, not to the editor's shortcuts.
                      e.stopPropagation();
                      if (e.key === 'F2') setRenaming(id);
                      else if (e.altKey) moveRow(id, up ? i - 1 : i + 1);
                      else focusRow(up ? i - 1 : i + 1);
                    }}
                  >
                    {name}
                  </button>
                )}
                <span className="layer-row__type">
                  {t(`editor.layers.types.${node.type}`)}
                  {node.type === 'PANEL' ? ` · ${node.data.position}` : ''}
                  {node.locked && <Icon name="lock" size={11} />}
                  {!node.visible && <Icon name="eyeOff" size={11} />}
                </span>
              </span>
              <span className="layer-row__actions">
                <span className="layer-row__quick">
                  <button
                    type="button"
                    className="icon-button"
                    title={node.visible ? t('editor.layers.hide') : t('editor.layers.show')}
                    aria-label={node.visible ? t('editor.layers.hide') : t('editor.layers.show')}
                    data-testid="toggle-visibility"
                    onClick={() => run(setVisibility, { ids: [id], visible: !node.visible })}
                  >
                    <Icon name={node.visible ? 'eye' : 'eyeOff'} />
                  </button>
                  <button
                    type="button"
                    className="icon-button"
                    title={node.locked ? t('editor.layers.unlock') : t('editor.layers.lock')}
                    aria-label={node.locked ? t('editor.layers.unlock') : t('editor.layers.lock')}
                    data-testid="toggle-lock"
                    onClick={() => run(setLocked, { ids: [id], locked: !node.locked })}
                  >
                    <Icon name={node.locked ? 'lock' : 'unlock'} />
                  </button>
                </span>
                <button
                  type="button"
                  className="icon-button"
                  title={t('editor.layers.actions', { name })}
                  aria-label={t('editor.layers.actions', { name })}
                  aria-haspopup="menu"
                  aria-expanded={menu?.id === id}
                  data-testid="layer-menu"
                  onClick={(e) => {
                    if (menu?.id === id) return setMenu(null);
                    const r = e.currentTarget.getBoundingClientRect();
                    session.ui.update({ selection: [id] });
                    setMenu({ id, x: r.left, y: r.bottom + 2 });
                  }}
                >
                  <Icon name="more" size={18} />
                </button>
              </span>
            </li>
          );
        })}
      </ol>
      {menu && doc.layers[menu.id] && (
        <ContextMenu
          session={session}
          menu={{ x: menu.x, y: menu.y, layerId: menu.id }}
          onClose={() => setMenu(null)}
          testId="layer-row-menu"
          itemPrefix="layer-menu-"
          extra={rowItems(menu.id, ids, t, { rename: setRenaming, move: moveRow })}
        />
      )}
    </section>
  );
}

function rowItems(
  id: string,
  ids: readonly string[],
  t: Translate,
  act: { rename: (id: string) => void; move: (id: string, to: number) => void },
): MenuItem[] {
  const i = ids.indexOf(id);
  const items: MenuItem[] = [[t('editor.layers.rename'), () => act.rename(id), 'rename']];
  if (i > 0) items.push([t('editor.layers.up'), () => act.move(id, i - 1), 'up']);
  if (i < ids.length - 1) items.push([t('editor.layers.down'), () => act.move(id, i + 1), 'down']);
  return items;
}
