import { useState } from 'react';
import {
  clipLayer,
  duplicateLayer,
  rearrangeLayer,
  removeLayers,
  renameLayer,
  setLocked,
  setVisibility,
  unclipLayer,
  type LayerNode,
} from '@koma/editor';
import type { EditorSession } from './session.ts';
import { useDoc, useUi } from './hooks.ts';
import { useT } from '../i18n/index.ts';
import { Icon } from './Icon.tsx';

/** The open page's layers, top first: select, show or hide, lock, rename, reorder, clip and delete. */
export function LayerList({ session }: { session: EditorSession }) {
  const t = useT();
  const doc = useDoc(session);
  const selection = useUi(session, (s) => s.selection);
  useUi(session, (s) => s.activePage);
  const root = doc.layers[session.activeRoot()];
  const [renaming, setRenaming] = useState<string | null>(null);
  if (!root) return null;
  const ids = [...root.children].reverse();
  const run = session.editor.execute.bind(session.editor);
  return (
    <section className="layer-list" aria-label={t('editor.layers.title')}>
      <h2 className="panel-title">{t('editor.layers.title')}</h2>
      {ids.length === 0 && <p className="muted">{t('editor.layers.empty')}</p>}
      <ol className="layer-list__items" data-testid="layer-list">
        {ids.map((id, i) => {
          const node = doc.layers[id] as LayerNode;
          const selected = selection.includes(id);
          const below = ids[i + 1];
          return (
            <li
              key={id}
              className={`layer-row${selected ? ' layer-row--selected' : ''}${node.clipTarget ? ' layer-row--clipped' : ''}`}
              data-testid="layer-row"
              data-layer-id={id}
              data-layer-type={node.type}
            >
              <button
                type="button"
                className="layer-row__name"
                aria-pressed={selected}
                onClick={(e) => session.ui.update({ selection: e.shiftKey ? [...new Set([...selection, id])] : [id] })}
                onDoubleClick={() => setRenaming(id)}
              >
                <span className="layer-row__type">
                  {t(`editor.layers.types.${node.type}`)}
                  {node.type === 'PANEL' ? ` ${node.data.position}` : ''}
                </span>
                {renaming === id ? (
                  <input
                    autoFocus
                    defaultValue={node.name}
                    aria-label={t('editor.layers.rename')}
                    onKeyDown={(e) => {
                      if (e.key === 'Enter') {
                        run(renameLayer, { id, name: e.currentTarget.value });
                        setRenaming(null);
                      }
                      if (e.key === 'Escape') setRenaming(null);
                    }}
                    onBlur={(e) => {
                      run(renameLayer, { id, name: e.currentTarget.value });
                      setRenaming(null);
                    }}
                  />
                ) : (
                  <span>{node.name}</span>
                )}
              </button>
              <span className="layer-row__actions">
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
                {selected && (
                  <>
                    <button
                      type="button"
                      className="icon-button"
                      title={t('editor.layers.up')}
                      aria-label={t('editor.layers.up')}
                      disabled={i === 0}
                      data-testid="layer-up"
                      onClick={() => run(rearrangeLayer, { id, to: 'forward' })}
                    >
                      <Icon name="up" />
                    </button>
                    <button
                      type="button"
                      className="icon-button"
                      title={t('editor.layers.down')}
                      aria-label={t('editor.layers.down')}
                      disabled={i === ids.length - 1}
                      data-testid="layer-down"
                      onClick={() => run(rearrangeLayer, { id, to: 'backward' })}
                    >
                      <Icon name="down" />
                    </button>
                    {node.clipTarget ? (
                      <button
                        type="button"
                        className="icon-button"
                        title={t('editor.layers.unclip')}
                        aria-label={t('editor.layers.unclip')}
                        onClick={() => run(unclipLayer, { id })}
                      >
                        <Icon name="unclip" />
                      </button>
                    ) : (
                      below && (
                        <button
                          type="button"
                          className="icon-button"
                          title={t('editor.layers.clip')}
                          aria-label={t('editor.layers.clip')}
                          data-testid="clip"
                          onClick={() => run(clipLayer, { id, targetId: below })}
                        >
                          <Icon name="clip" />
                        </button>
                      )
                    )}
                    <button
                      type="button"
                      className="icon-button"
                      title={t('editor.layers.duplicate')}
                      aria-label={t('editor.layers.duplicate')}
                      onClick={() => run(duplicateLayer, { id })}
                    >
                      <Icon name="copy" />
                    </button>
                    <button
                      type="button"
                      className="icon-button"
                      title={t('editor.layers.remove')}
                      aria-label={t('editor.layers.remove')}
                      data-testid="remove-layer"
                      onClick={() => run(removeLayers, { ids: [id] })}
                    >
                      <Icon name="trash" />
                    </button>
                  </>
                )}
              </span>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
