import { decodeWorkspaceData } from '@koma/domain';
import { normalize, restoreVersion } from '@koma/editor';
import type { EditorSession } from '../session.ts';

/**
 * Puts an earlier version's content in the open editor as one command: the next autosave stores it as a new
 * version, and one undo brings back what was there before. Returns the refusal in words, or null.
 */
export function restoreInto(session: EditorSession, data: unknown): string | null {
  const decoded = decodeWorkspaceData(structuredClone(data));
  if (!decoded.ok) return decoded.error.message;
  const result = session.editor.execute(restoreVersion, { version: normalize(decoded.value, session.type) });
  if (!result.ok) return result.error;
  void session.autosave.saveNow();
  return null;
}
