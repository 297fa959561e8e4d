import { jsonLength, knowDocument, type DocumentText, type KnownObjects, type WorkspaceData } from '@koma/domain';

/** A workspace's head held decoded, as a patch save starts from it (see document/incremental.ts in the domain). */
export interface DecodedHead {
  revision: number;
  doc: WorkspaceData;
  known: KnownObjects;
  /** The length of the document's JSON text. */
  length: number;
}

// A decoded document takes several times the memory of its JSON text; counted as this many times its length.
const MEMORY_PER_CHARACTER = 4;

/**
 * The last acknowledged head of recently saved workspaces, decoded, least recently used out first within a memory
 * budget. Only an accelerator: an entry is used only when its revision is the head the database names (a save
 * checks it before and again under the row lock), so several API processes stay correct; a miss decodes in full.
 */
export class HeadCache {
  private readonly entries = new Map<string, DecodedHead>();
  private bytes = 0;

  constructor(private readonly budgetBytes: number) {}

  /** The decoded head of `id` when it is `revision`. */
  get(id: string, revision: number): DecodedHead | undefined {
    const entry = this.entries.get(id);
    if (!entry || entry.revision !== revision) return undefined;
    this.entries.delete(id);
    this.entries.set(id, entry);
    return entry;
  }

  /**
   * Remembers `doc` (a decoded document, never changed afterwards) as revision `revision` of `id`. `known` carries
   * what is known of its objects when it was made from an earlier head; `length` its JSON length when known.
   */
  set(id: string, revision: number, doc: WorkspaceData, from: { known?: KnownObjects; length?: number } = {}): void {
    this.delete(id);
    if (this.budgetBytes <= 0) return;
    const known = from.known ?? knowDocument(doc);
    const length = from.length ?? jsonLength(known, doc);
    const cost = length * MEMORY_PER_CHARACTER;
    if (cost > this.budgetBytes / 4) return;
    this.entries.set(id, { revision, doc, known, length });
    this.bytes += cost;
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.budgetBytes) break;
      this.entries.delete(oldest);
      this.bytes -= entry.length * MEMORY_PER_CHARACTER;
    }
  }

  delete(id: string): void {
    const old = this.entries.get(id);
    if (!old) return;
    this.entries.delete(id);
    this.bytes -= old.length * MEMORY_PER_CHARACTER;
  }

  /** Revision `revision` of `id` as JSON text when it is held, written out once. */
  text(id: string, revision: number): string | undefined {
    const entry = this.entries.get(id);
    return entry?.revision === revision ? JSON.stringify(entry.doc) : undefined;
  }
}

/** A document's JSON text, written out only if asked (a keyframe), with its length known beforehand. */
export function lazyText(doc: WorkspaceData, length: number): DocumentText {
  let text: string | undefined;
  return {
    length,
    text: () => (text ??= JSON.stringify(doc)),
  };
}
