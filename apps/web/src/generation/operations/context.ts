// What an operation module of the web needs from the generation controller: the session, the settings the tabs
// show, a way to submit a job and land its output, and the price of a payload (the server's own arithmetic).
import type { OperationKind } from '@koma/domain';
import type { LayerNode } from '@koma/editor';
import type { EditorSession } from '../../editor/session.ts';
import type { JobOp } from '../jobs.ts';
import type { SettingsStore } from '../settings.ts';

export interface OperationContext {
  readonly session: EditorSession;
  readonly settings: SettingsStore;
  /**
   * Submits a job of the operation `kind` to its endpoint, shows its progress on `job.layerId`, lands its output as
   * `job` says, or reports why it failed (undoing a layer the job was to fill).
   */
  submit(kind: OperationKind, payload: Record<string, unknown>, estimate: number, job: JobOp): Promise<void>;
  /** The credits a payload costs, or null while it is not valid (the same number the server charges). */
  quote(kind: OperationKind, payload: unknown): number | null;
}

/** The image layer with this id, or undefined. */
export function imageLayer(session: EditorSession, id: string): LayerNode<'IMAGE'> | undefined {
  const node = session.editor.doc.layers[id];
  return node?.type === 'IMAGE' ? node : undefined;
}

/** The shown variation's image id, or undefined for a layer with no data (an operation then does nothing). */
export function currentImage(session: EditorSession, id: string): string | undefined {
  const node = imageLayer(session, id);
  return node?.data.variations[node.data.variationsIdx]?.id;
}

/** True while a job runs for the layer. */
export function busy(session: EditorSession, id: string): boolean {
  return !!session.ui.state.processing[id];
}

/** The point of the canvas at the middle of the view. */
export function viewCentre(session: EditorSession): { x: number; y: number } {
  const v = session.view();
  return {
    x: (session.viewport.width / 2 - v.x) / v.zoom,
    y: (session.viewport.height / 2 - v.y) / v.zoom,
  };
}
