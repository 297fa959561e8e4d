import { TOOLS } from '@koma/editor';
import type { EditorSession } from './session.ts';
import { useHistoryState, useUi } from './hooks.ts';
import { useT } from '../i18n/index.ts';
import { SaveIndicator } from './SaveIndicator.tsx';
import { ExportMenu } from '../export/ExportMenu.tsx';
import { Icon, type IconName } from './Icon.tsx';
import { ImportButton } from './import/ImportButton.tsx';
import { WorkspaceName } from './WorkspaceName.tsx';
import { toolKey } from './shortcut-table.ts';
import type { Side } from './layout/sidebars.ts';
import './i18n-shell.ts';
import './history/i18n.ts';

const ICONS: Record<(typeof TOOLS)[number], IconName> = {
  MOVE: 'move',
  SELECT: 'select',
  BRUSH: 'brush',
  POSE: 'pose',
  PANEL: 'panel',
  TEXT: 'text',
};

/** The six tools (keys 1–6); each tooltip names its key. */
export function ToolButtons({ session }: { session: EditorSession }) {
  const t = useT();
  const tool = useUi(session, (s) => s.tool);
  return (
    <>
      {TOOLS.map((id, i) => (
        <button
          key={id}
          type="button"
          className={`tool-button${tool === id ? ' tool-button--active' : ''}`}
          aria-pressed={tool === id}
          title={t('editor.toolTitle', { name: t(`editor.tools.${id}`), key: toolKey(i) })}
          data-testid={`tool-${id}`}
          onClick={() => session.ui.update({ tool: id })}
        >
          <Icon name={ICONS[id]} size={18} />
          <span className="tool-button__label">{t(`editor.tools.${id}`)}</span>
        </button>
      ))}
    </>
  );
}

/** Opens or closes a sidebar (a sheet on a phone). */
export function SidebarToggle({ side, open, onToggle }: { side: Side; open: boolean; onToggle: () => void }) {
  const t = useT();
  const label = t(side === 'left' ? 'editor.layout.layers' : 'editor.layout.properties');
  return (
    <button
      type="button"
      className={`tool-button sidebar-toggle${open ? ' tool-button--active' : ''}`}
      aria-expanded={open}
      aria-controls={`${side}-sidebar`}
      aria-label={label}
      title={label}
      data-testid={`toggle-${side}`}
      onClick={onToggle}
    >
      <Icon name={side === 'left' ? 'layers' : 'sliders'} size={18} />
    </button>
  );
}

/** Opens and closes the History panel (in the top bar; in the bottom bar on a phone). */
export function HistoryButton({ open, onClick }: { open: boolean; onClick: () => void }) {
  const t = useT();
  return (
    <button
      type="button"
      className={`tool-button${open ? ' tool-button--active' : ''}`}
      title={t('history.open')}
      aria-label={t('history.open')}
      aria-pressed={open}
      data-testid="history-button"
      onClick={onClick}
    >
      <Icon name="history" size={18} />
    </button>
  );
}

interface TopBarProps {
  session: EditorSession;
  phone: boolean;
  left: { open: boolean; toggle: () => void };
  right: { open: boolean; toggle: () => void };
  onShortcuts: () => void;
  /** Opens the History panel. */
  onHistory?: () => void;
  historyOpen?: boolean;
  /** A version is shown read-only: undo and redo would act on the document hidden under it. */
  previewing?: boolean;
}

/**
 * The editor's top bar: the workspace name, the tools (in the bottom bar on a phone), undo and redo, upload, the
 * shortcut sheet, export and the save state, with the sidebar toggles at either end.
 */
export function TopBar({ session, phone, left, right, onShortcuts, onHistory, historyOpen, previewing }: TopBarProps) {
  const t = useT();
  const tool = useUi(session, (s) => s.tool);
  const brushSize = useUi(session, (s) => s.brushSize);
  const { canUndo, canRedo } = useHistoryState(session);
  return (
    <div className="editor-toolbar" role="toolbar" aria-label={t('editor.layout.tools')}>
      {!phone && <SidebarToggle side="left" open={left.open} onToggle={left.toggle} />}
      <WorkspaceName session={session} />
      {!phone && (
        <span className="editor-toolbar__tools">
          <ToolButtons session={session} />
        </span>
      )}
      {tool === 'BRUSH' && !phone && (
        <span className="editor-toolbar__brush" data-testid="brush-size">
          {brushSize}px
        </span>
      )}
      <span className="editor-toolbar__spacer" />
      <button
        type="button"
        className="tool-button"
        disabled={!canUndo || previewing}
        onClick={() => session.editor.undo()}
        title={`${t('editor.undo')} (Ctrl+Z)`}
        aria-label={t('editor.undo')}
        data-testid="undo"
      >
        <Icon name="undo" size={18} />
      </button>
      <button
        type="button"
        className="tool-button"
        disabled={!canRedo || previewing}
        onClick={() => session.editor.redo()}
        title={`${t('editor.redo')} (Ctrl+Shift+Z)`}
        aria-label={t('editor.redo')}
        data-testid="redo"
      >
        <Icon name="redo" size={18} />
      </button>
      <ImportButton session={session} label={!phone} />
      {onHistory && !phone && <HistoryButton open={historyOpen ?? false} onClick={onHistory} />}
      {!phone && (
        <button
          type="button"
          className="tool-button"
          title={`${t('editor.shortcuts.open')} (?)`}
          aria-label={t('editor.shortcuts.open')}
          aria-haspopup="dialog"
          data-testid="shortcuts-button"
          onClick={onShortcuts}
        >
          <Icon name="help" size={18} />
        </button>
      )}
      <ExportMenu session={session} />
      <SaveIndicator session={session} />
      {!phone && <SidebarToggle side="right" open={right.open} onToggle={right.toggle} />}
    </div>
  );
}

/** A phone's bottom bar: the six tools and the two sheets, in reach of a thumb. */
export function PhoneBar({
  session,
  left,
  right,
  history,
}: {
  session: EditorSession;
  left: { open: boolean; toggle: () => void };
  right: { open: boolean; toggle: () => void };
  history?: { open: boolean; toggle: () => void };
}) {
  const t = useT();
  return (
    <nav className="phone-bar" aria-label={t('editor.layout.tools')}>
      <ToolButtons session={session} />
      <SidebarToggle side="left" open={left.open} onToggle={left.toggle} />
      <SidebarToggle side="right" open={right.open} onToggle={right.toggle} />
      {history && <HistoryButton open={history.open} onClick={history.toggle} />}
    </nav>
  );
}
