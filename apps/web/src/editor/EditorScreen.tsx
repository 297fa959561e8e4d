import { useCallback, useEffect, useRef, useState } from 'react';
import { api } from '../api/endpoints.ts';
import { isPhoneScreen } from '../api/imageCache.ts';
import { Header } from '../components/Header.tsx';
import { useT } from '../i18n/index.ts';
import { useSession } from '../session/context.ts';
import { CanvasView } from '../canvas/CanvasView.tsx';
import { EditorSession } from './session.ts';
import { Toolbar } from './Toolbar.tsx';
import { LayerList } from './LayerList.tsx';
import { PageStrip } from './PageStrip.tsx';
import { RightPanel } from './RightPanel.tsx';
import { Toast } from './Toast.tsx';
import { ConflictDialog } from './ConflictDialog.tsx';
import { AddBar } from './AddBar.tsx';
import { ContextMenu, type ContextMenuState } from './ContextMenu.tsx';
import '../screens/status.css';
import './editor.css';
import './i18n.ts';
import { generationTabs } from '../generation/tabs.tsx';
import { PlanDialogs, ProcessingOverlay, useGenerationController } from '../generation/GenerationLayer.tsx';
import { CompositeOverlay } from '../generation/regional/CompositeOverlay.tsx';

type Loaded = { id: string; session: EditorSession } | { id: string; failed: true };

/** The editor for one workspace: loads it, then lays out toolbar, layers, canvas, tabs and page strip. */
export function EditorScreen({ workspaceId }: { workspaceId: string }) {
  const t = useT();
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const account = useSession();
  const restricted = useRef(false);
  restricted.current = account.user?.restrictedMode ?? false;

  useEffect(() => {
    let active = true;
    let session: EditorSession | null = null;
    api.workspace
      .get(workspaceId)
      .then((record) => {
        if (!active) return;
        session = new EditorSession(workspaceId, record, api, { restricted: restricted.current });
        session.autosave.start();
        // Browser tests and bug reports read the open document from here (it is the user's own data).
        (window as { __koma?: EditorSession }).__koma = session;
        setLoaded({ id: workspaceId, session });
      })
      .catch((error: unknown) => {
        console.error(`Failed to load workspace ${workspaceId}`, error);
        if (active) setLoaded({ id: workspaceId, failed: true });
      });
    return () => {
      active = false;
      if (session) {
        void session.autosave.saveNow();
        session.dispose();
      }
    };
  }, [workspaceId]);

  const current = loaded?.id === workspaceId ? loaded : null;
  if (!current || !('session' in current)) {
    return (
      <div className="app-shell">
        <Header />
        <main className="status-screen" data-testid="editor-screen" data-workspace-id={workspaceId}>
          {current ? (
            <p className="status-screen__text status-screen__text--error" role="alert">
              {t('common.failed_to_load_workspace', { id: workspaceId })}
            </p>
          ) : (
            <p className="status-screen__text" aria-live="polite">
              {t('editor.loading')}
            </p>
          )}
        </main>
      </div>
    );
  }
  return <EditorLayout session={current.session} />;
}

function EditorLayout({ session }: { session: EditorSession }) {
  const account = useSession();
  // The generation flows (keys g, v, e; prompt, model and settings tabs): session.generation is set here.
  const generation = useGenerationController(session);
  // On a phone the sidebars start folded so the canvas gets the screen.
  const [leftOpen, setLeftOpen] = useState(() => !isPhoneScreen(window.innerWidth, window.innerHeight));
  const [rightOpen, setRightOpen] = useState(() => !isPhoneScreen(window.innerWidth, window.innerHeight));

  useEffect(() => {
    // Fields that take typing or arrow keys keep their keys; a focused checkbox or button does not.
    const inTextInput = (target: EventTarget | null) =>
      target instanceof HTMLElement &&
      (target.isContentEditable ||
        target.tagName === 'TEXTAREA' ||
        target.tagName === 'SELECT' ||
        (target instanceof HTMLInputElement &&
          !['checkbox', 'radio', 'button', 'submit', 'reset', 'color'].includes(target.type)));
    const down = (e: KeyboardEvent) => {
      const used = session.keyDown({
        key: e.key,
        ctrl: e.ctrlKey,
        meta: e.metaKey,
        shift: e.shiftKey,
        alt: e.altKey,
        inTextInput: inTextInput(e.target),
      });
      if (used) e.preventDefault();
    };
    const up = (e: KeyboardEvent) => session.keyUp({ key: e.key });
    const leave = (e: BeforeUnloadEvent) => {
      if (!session.editor.dirty) return;
      void session.autosave.saveNow();
      e.preventDefault();
    };
    window.addEventListener('keydown', down);
    window.addEventListener('keyup', up);
    window.addEventListener('beforeunload', leave);
    return () => {
      window.removeEventListener('keydown', down);
      window.removeEventListener('keyup', up);
      window.removeEventListener('beforeunload', leave);
    };
  }, [session]);

  const [menu, setMenu] = useState<ContextMenuState | null>(null);
  const closeMenu = useCallback(() => setMenu(null), []);
  const fps = account.preferences.fps;
  const restricted = account.user?.restrictedMode ?? false;
  return (
    <div className="app-shell editor-shell" data-testid="editor-screen" data-workspace-id={session.workspaceId}>
      <Header />
      <Toolbar session={session} />
      <div
        className={`editor-body${leftOpen ? '' : ' editor-body--left-closed'}${rightOpen ? '' : ' editor-body--right-closed'}`}
      >
        <button
          type="button"
          className="sidebar-toggle sidebar-toggle--left"
          aria-expanded={leftOpen}
          aria-label="Layers"
          onClick={() => setLeftOpen(!leftOpen)}
        >
          {leftOpen ? '‹' : '›'}
        </button>
        {leftOpen && (
          <aside className="left-panel">
            <AddBar session={session} />
            <LayerList session={session} />
          </aside>
        )}
        <main className="canvas-area">
          <CanvasView session={session} fps={fps} restricted={restricted} onContextMenu={setMenu} />
          <CompositeOverlay session={session} />
          <ProcessingOverlay session={session} />
          <Toast session={session} />
        </main>
        {rightOpen && <RightPanel session={session} extra={generationTabs} />}
        <button
          type="button"
          className="sidebar-toggle sidebar-toggle--right"
          aria-expanded={rightOpen}
          aria-label="Properties"
          onClick={() => setRightOpen(!rightOpen)}
        >
          {rightOpen ? '›' : '‹'}
        </button>
      </div>
      {session.type === 'COMIC' && <PageStrip session={session} />}
      <ConflictDialog session={session} />
      {menu && <ContextMenu session={session} menu={menu} onClose={closeMenu} />}
      <PlanDialogs session={session} controller={generation} />
    </div>
  );
}
