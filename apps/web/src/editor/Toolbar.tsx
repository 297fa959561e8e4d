import { TOOLS } from '@koma/editor';
import type { EditorSession } from './session.ts';
import { useHistoryState, useUi } from './hooks.ts';
import { useT } from '../i18n/index.ts';
import { SaveIndicator } from './SaveIndicator.tsx';
import { ExportMenu } from '../export/ExportMenu.tsx';

const ICONS: Record<(typeof TOOLS)[number], string> = {
  MOVE: '✥',
  SELECT: '⬚',
  BRUSH: '✎',
  POSE: '☺',
  PANEL: '▦',
  TEXT: 'T',
};

/** The six tools (keys 1–6), undo and redo with their availability, and the save state. */
export function Toolbar({ session }: { session: EditorSession }) {
  const t = useT();
  const tool = useUi(session, (s) => s.tool);
  const brushSize = useUi(session, (s) => s.brushSize);
  const { canUndo, canRedo } = useHistoryState(session);
  return (
    <nav className="editor-toolbar" aria-label="Tools">
      {TOOLS.map((id, i) => (
        <button
          key={id}
          type="button"
          className={`tool-button${tool === id ? ' tool-button--active' : ''}`}
          aria-pressed={tool === id}
          title={t('editor.toolHint', { n: i + 1, name: t(`editor.tools.${id}`) })}
          data-testid={`tool-${id}`}
          onClick={() => session.ui.update({ tool: id })}
        >
          <span aria-hidden="true">{ICONS[id]}</span>
          <span className="tool-button__label">{t(`editor.tools.${id}`)}</span>
        </button>
      ))}
      {tool === 'BRUSH' && (
        <span className="editor-toolbar__brush" data-testid="brush-size">
          {brushSize}px
        </span>
      )}
      <span className="editor-toolbar__spacer" />
      <button
        type="button"
        className="tool-button"
        disabled={!canUndo}
        onClick={() => session.editor.undo()}
        title={`${t('editor.undo')} (Ctrl+Z)`}
        data-testid="undo"
      >
        <span aria-hidden="true">↶</span>
        <span className="tool-button__label">{t('editor.undo')}</span>
      </button>
      <button
        type="button"
        className="tool-button"
        disabled={!canRedo}
        onClick={() => session.editor.redo()}
        title={`${t('editor.redo')} (Ctrl+Shift+Z)`}
        data-testid="redo"
      >
        <span aria-hidden="true">↷</span>
        <span className="tool-button__label">{t('editor.redo')}</span>
      </button>
      <ExportMenu session={session} />
      <SaveIndicator session={session} />
    </nav>
  );
}
