import { DEFAULT_PANEL_SIZES } from '@koma/domain';
import { addPanel, addPose, addText, screenToCanvas } from '@koma/editor';
import { newBubbleForPage } from '../canvas/new-bubble.ts';
import type { EditorSession } from './session.ts';
import { useT } from '../i18n/index.ts';

/** Buttons that add a layer in the middle of the view (the same layers the tools and keys add). */
export function AddBar({ session }: { session: EditorSession }) {
  const t = useT();
  const centre = () =>
    screenToCanvas(session.view(), { x: session.viewport.width / 2, y: session.viewport.height / 2 });
  const place = (width: number, height: number) => {
    const c = centre();
    return { x: c.x - width / 2, y: c.y - height / 2, size: { width, height } };
  };
  const select = (result: { ok: true; value: string } | { ok: false; error: string }) => {
    if (result.ok) session.ui.update({ selection: [result.value] });
  };
  return (
    <div className="add-bar">
      <div className="button-row">
        {DEFAULT_PANEL_SIZES.map((size) => (
          <button
            key={`${size.width}x${size.height}`}
            type="button"
            className="button button--small"
            data-testid={`add-panel-${size.width}x${size.height}`}
            onClick={() =>
              select(
                session.editor.execute(addPanel, {
                  parentId: session.activeRoot(),
                  transform: place(size.width, size.height),
                }),
              )
            }
          >
            {t('editor.add.panel')} {size.width}×{size.height}
          </button>
        ))}
      </div>
      <div className="button-row">
        <button
          type="button"
          className="button button--small"
          data-testid="add-text"
          onClick={() => {
            const { data, size } = newBubbleForPage(session.editor.doc.comicConfiguration.setup);
            select(
              session.editor.execute(addText, {
                parentId: session.activeRoot(),
                transform: place(size.width, size.height),
                data,
              }),
            );
          }}
        >
          {t('editor.add.text')}
        </button>
        <button
          type="button"
          className="button button--small"
          data-testid="add-pose"
          onClick={() =>
            select(
              session.editor.execute(addPose, {
                parentId: session.activeRoot(),
                transform: place(512, 1024),
                fullBody: true,
              }),
            )
          }
        >
          {t('editor.add.pose')}
        </button>
        <button
          type="button"
          className="button button--small"
          onClick={() =>
            select(
              session.editor.execute(addPose, {
                parentId: session.activeRoot(),
                transform: place(512, 512),
                fullBody: false,
              }),
            )
          }
        >
          {t('editor.add.upperPose')}
        </button>
      </div>
    </div>
  );
}
