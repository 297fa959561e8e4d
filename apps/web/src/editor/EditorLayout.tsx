import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { useSession } from '../session/context.ts';
import { Header } from '../components/Header.tsx';
import { useT } from '../i18n/index.ts';
import { CanvasView } from '../canvas/CanvasView.tsx';
import type { EditorSession } from './session.ts';
import { PhoneBar, TopBar } from './Toolbar.tsx';
import { LayerList } from './LayerList.tsx';
import { PageStrip } from './PageStrip.tsx';
import { RightPanel } from './RightPanel.tsx';
import { Toast } from './Toast.tsx';
import { ConflictDialog } from './ConflictDialog.tsx';
import { HistoryPanel } from './history/HistoryPanel.tsx';
import { AddBar } from './AddBar.tsx';
import { ContextMenu, type ContextMenuState } from './ContextMenu.tsx';
import { ShortcutSheet } from './ShortcutSheet.tsx';
import { Icon } from './Icon.tsx';
import { SidebarEdge } from './layout/SidebarEdge.tsx';
import { useScreenKind } from './layout/screen.ts';
import { useSidebars, type Side } from './layout/sidebars.ts';
import { ImportProgressList } from './import/ImportProgressList.tsx';
import { importFiles, pastedFiles } from './import/import-images.ts';
import { controlOf, isTextEntry, shortcutsStandAside } from './keys.ts';
import { generationTabs } from '../generation/tabs.tsx';
import { PlanDialogs, ProcessingOverlay, useGenerationController } from '../generation/GenerationLayer.tsx';
import { QueuePanel } from '../generation/QueuePanel.tsx';
import { CompositeOverlay } from '../generation/regional/CompositeOverlay.tsx';
import './layout/layout.css';
import './i18n-shell.ts';

/** Keys to the editor's shortcuts (unless a control owns them), paste to the import path, and the leave warning. */
function useEditorInput(session: EditorSession, openShortcuts: () => void): void {
  useEffect(() => {
    // A paste event carries no modifier keys: whether Alt is held is read from the keys around it.
    let altHeld = false;
    const down = (e: KeyboardEvent) => {
      altHeld = e.altKey;
      if (e.defaultPrevented) return;
      const standAside = shortcutsStandAside(controlOf(e.target), e.key, {
        ctrl: e.ctrlKey,
        meta: e.metaKey,
        alt: e.altKey,
      });
      if (!standAside && e.key === '?' && !e.ctrlKey && !e.metaKey && !e.altKey) {
        e.preventDefault();
        openShortcuts();
        return;
      }
      const used = session.keyDown({
        key: e.key,
        ctrl: e.ctrlKey,
        meta: e.metaKey,
        shift: e.shiftKey,
        alt: e.altKey,
        inTextInput: standAside,
      });
      if (used) e.preventDefault();
    };
    const up = (e: KeyboardEvent) => {
      altHeld = e.altKey && e.key !== 'Alt';
      session.keyUp({ key: e.key });
    };
    const paste = (e: ClipboardEvent) => {
      // Pasting into a text field is typing.
      if (isTextEntry(controlOf(e.target))) return;
      const files = pastedFiles(e.clipboardData);
      if (files.length === 0) return;
      e.preventDefault();
      void importFiles(session, files, { at: session.ui.state.pointer, natural: altHeld });
    };
    const leave = (e: BeforeUnloadEvent) => {
      if (!session.editor.dirty) return;
      void session.autosave.saveNow();
      e.preventDefault();
    };
    window.addEventListener('keydown', down);
    window.addEventListener('keyup', up);
    window.addEventListener('paste', paste);
    window.addEventListener('beforeunload', leave);
    return () => {
      window.removeEventListener('keydown', down);
      window.removeEventListener('keyup', up);
      window.removeEventListener('paste', paste);
      window.removeEventListener('beforeunload', leave);
    };
  }, [session, openShortcuts]);
}

interface SidebarProps {
  side: Side;
  open: boolean;
  phone: boolean;
  width: number;
  label: string;
  onClose: () => void;
  onWidth: (width: number, save: boolean) => void;
  /** Out of reach while a version is previewed: edits there would change the document hidden under it. */
  locked?: boolean;
  children: ReactNode;
}

/**
 * A sidebar: beside the canvas on a desktop or tablet (resizable by its inner edge, gone when collapsed), or a sheet
 * that slides up over the canvas on a phone. Its content stays mounted while closed, so tabs and scroll survive.
 */
function Sidebar({ side, open, phone, width, label, onClose, onWidth, locked, children }: SidebarProps) {
  const t = useT();
  return (
    <aside
      id={`${side}-sidebar`}
      className={`sidebar sidebar--${side}${phone ? ' sidebar--sheet' : ''}${open ? ' sidebar--open' : ''}`}
      aria-label={label}
      data-testid={`${side}-sidebar`}
      hidden={!phone && !open}
      inert={(phone && !open) || locked}
      // A sidebar never takes more than 38 % of the window, whatever width is stored, so the canvas keeps its room.
      style={phone ? undefined : { width: `min(${width}px, 38vw)` }}
    >
      {phone && (
        <div className="sheet-head">
          <h2 className="sheet-head__title">{label}</h2>
          <button
            type="button"
            className="tool-button"
            aria-label={t('editor.layout.close')}
            title={t('editor.layout.close')}
            data-testid="close-sheet"
            onClick={onClose}
          >
            <Icon name="close" size={18} />
          </button>
        </div>
      )}
      <div className="sidebar__content">{children}</div>
      {!phone && (
        <SidebarEdge
          side={side}
          width={width}
          label={t(side === 'left' ? 'editor.layout.resizeLeft' : 'editor.layout.resizeRight')}
          onWidth={onWidth}
        />
      )}
    </aside>
  );
}

/**
 * The editor's screen. The canvas takes whatever room the bars and sidebars leave, so no combination of sidebars can
 * push it off screen. A phone (editor.md §9) gets the canvas-first layout: tools in a bottom bar, sidebars as sheets.
 */
export function EditorLayout({ session }: { session: EditorSession }) {
  const t = useT();
  const account = useSession();
  // The generation flows (keys g, v, e; prompt, model and settings tabs): session.generation is set here.
  const generation = useGenerationController(session);
  const screen = useScreenKind();
  const phone = screen === 'phone';
  const sidebars = useSidebars();
  const [sheet, setSheet] = useState<Side | null>(null);
  const [shortcuts, setShortcuts] = useState(false);
  const openShortcuts = useCallback(() => setShortcuts(true), []);
  const [history, setHistory] = useState(false);
  const [previewing, setPreviewing] = useState(false);
  const closeHistory = useCallback(() => {
    setHistory(false);
    setPreviewing(false);
  }, []);
  const toggleHistory = () => (history ? closeHistory() : setHistory(true));
  useEditorInput(session, openShortcuts);

  const isOpen = (side: Side) =>
    phone ? sheet === side : side === 'left' ? sidebars.layout.leftOpen : sidebars.layout.rightOpen;
  const toggle = (side: Side) => {
    if (phone) setSheet(sheet === side ? null : side);
    else sidebars.setOpen(side, !isOpen(side));
  };
  const left = { open: isOpen('left'), toggle: () => toggle('left') };
  const right = { open: isOpen('right'), toggle: () => toggle('right') };

  const [menu, setMenu] = useState<ContextMenuState | null>(null);
  const closeMenu = useCallback(() => setMenu(null), []);
  const fps = account.preferences.fps;
  const restricted = account.user?.restrictedMode ?? false;
  return (
    <div
      className={`app-shell editor-shell editor-shell--${screen}`}
      data-testid="editor-screen"
      data-workspace-id={session.workspaceId}
      data-screen={screen}
    >
      <Header />
      <TopBar
        session={session}
        phone={phone}
        left={left}
        right={right}
        onShortcuts={openShortcuts}
        onHistory={toggleHistory}
        historyOpen={history}
        previewing={previewing}
      />
      <div className="editor-body">
        <Sidebar
          side="left"
          open={left.open}
          phone={phone}
          width={sidebars.layout.leftWidth}
          label={t('editor.layout.layers')}
          onClose={() => setSheet(null)}
          onWidth={(w, save) => sidebars.setWidth('left', w, save)}
          locked={previewing}
        >
          <AddBar session={session} />
          <LayerList session={session} />
        </Sidebar>
        <main className="canvas-area">
          <CanvasView session={session} fps={fps} restricted={restricted} onContextMenu={setMenu} />
          <CompositeOverlay session={session} />
          <ProcessingOverlay session={session} />
          <ImportProgressList session={session} />
          {history && <HistoryPanel session={session} onClose={closeHistory} onPreview={setPreviewing} />}
          {/* One column along the bottom: toasts stack above the queue, which shrinks (and scrolls) to leave them room. */}
          <div className="canvas-dock">
            <Toast session={session} />
            <QueuePanel session={session} />
          </div>
        </main>
        <Sidebar
          side="right"
          open={right.open}
          phone={phone}
          width={sidebars.layout.rightWidth}
          label={t('editor.layout.properties')}
          onClose={() => setSheet(null)}
          onWidth={(w, save) => sidebars.setWidth('right', w, save)}
          locked={previewing}
        >
          <RightPanel session={session} extra={generationTabs} />
        </Sidebar>
      </div>
      {/* display: contents keeps the layout; inert keeps a previewed version's banner the only way on. */}
      <div className="editor-shell__rest" inert={previewing}>
        {session.type === 'COMIC' && <PageStrip session={session} />}
        {phone && (
          <PhoneBar session={session} left={left} right={right} history={{ open: history, toggle: toggleHistory }} />
        )}
      </div>
      <ConflictDialog session={session} />
      {menu && <ContextMenu session={session} menu={menu} onClose={closeMenu} />}
      {shortcuts && <ShortcutSheet onClose={() => setShortcuts(false)} />}
      <PlanDialogs session={session} controller={generation} />
    </div>
  );
}
