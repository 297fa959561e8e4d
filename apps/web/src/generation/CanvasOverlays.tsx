import { boxOf, pinnableFaces, updateText, type LayerNode } from '@koma/editor';
import { useDoc, useUi } from '../editor/hooks.ts';
import type { EditorSession } from '../editor/session.ts';
import { useT } from '../i18n/index.ts';
import { FaceOutlines } from './faces/FaceOutlines.tsx';
import { toScreen } from './faces/face-boxes.ts';
import { useObservable } from './observable.ts';
import { resultsOf } from './results.ts';
import './i18n-jobs.ts';
import './results.css';

/** The image layers of the open page, top-level and nested. */
function imageLayersOf(session: EditorSession): LayerNode<'IMAGE'>[] {
  const doc = session.editor.doc;
  const out: LayerNode<'IMAGE'>[] = [];
  const walk = (id: string) => {
    const node = doc.layers[id];
    if (!node) return;
    if (node.type === 'IMAGE' && node.visible !== false) out.push(node);
    for (const child of node.children) walk(child);
  };
  walk(session.activeRoot());
  return out;
}

/**
 * "Preview engine — not a diffusion model" on every picture the builtin engine drew, on the canvas (the badge is
 * part of the editor, not of the picture: exports do not carry it).
 */
export function BuiltinBadges({ session }: { session: EditorSession }) {
  const t = useT();
  useDoc(session);
  const results = resultsOf(session);
  useObservable(results.version);
  const view = session.view();
  const badges = imageLayersOf(session).flatMap((node) => {
    const variation = node.data.variations[node.data.variationsIdx];
    return variation && results.engineOf(variation.id) === 'builtin' ? [node] : [];
  });
  if (badges.length === 0) return null;
  return (
    <div className="gen-overlay" data-testid="builtin-badges">
      {badges.map((node) => {
        const box = toScreen({ ...boxOf(node), height: 0 }, view);
        return (
          <span
            key={node.id}
            className="gen-builtin-badge gen-builtin-badge--canvas"
            style={{ left: box.left + 6, top: box.top + 6, maxWidth: Math.max(80, box.width - 12) }}
            title={t('generation.builtin.hint')}
            data-testid="builtin-badge"
            data-layer-id={node.id}
          >
            {t('generation.builtin.badge')}
          </span>
        );
      })}
    </div>
  );
}

/**
 * The numbered outlines of the faces found in the selected image's shown picture; for a speech bubble, only while
 * its tail menu is open: the faces its tail can be pinned to, numbered as in that menu, each a button that pins it.
 */
export function SelectedFaces({ session }: { session: EditorSession }) {
  const selection = useUi(session, (s) => s.selection);
  const menuFor = useUi(session, (s) => s.faceMenuFor);
  const doc = useDoc(session);
  const node = selection.length === 1 ? doc.layers[selection[0]!] : undefined;
  if (node?.type === 'TEXT') {
    if (menuFor !== node.id || node.data.backgroundType !== 'SPEECH_BUBBLE') return null;
    const pin = (layerId: string) => (index: number) => {
      session.editor.execute(updateText, {
        id: node.id,
        patch: { pinToFace: true, tailTargetLayerId: layerId, tailTargetFaceIdx: index },
      });
      session.ui.update({ faceMenuFor: null });
    };
    return (
      <>
        {pinnableFaces(doc, node).map(({ image, faces }) => (
          <FaceOutlines key={image.id} session={session} layer={image} faces={faces} onPick={pin(image.id)} />
        ))}
      </>
    );
  }
  if (node?.type !== 'IMAGE') return null;
  const variation = node.data.variations[node.data.variationsIdx];
  const faces = variation ? node.data.faceStore[variation.id] : undefined;
  if (!faces || faces.length === 0) return null;
  return <FaceOutlines session={session} layer={node} faces={faces} />;
}
