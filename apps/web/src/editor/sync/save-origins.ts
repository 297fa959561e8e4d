/** Where a save made elsewhere came from, as the conflict dialog names it. */
export type SaveOrigin = 'tab' | 'device';

/**
 * Remembers which tab stored each revision heard of, and which tabs are in this browser (those heard over the
 * BroadcastChannel, which only reaches this browser's tabs). A tab the server named but this browser never heard
 * from is on another device (or in another browser).
 */
export class SaveOrigins {
  private readonly byRevision = new Map<number, string | null>();
  private readonly browserTabs = new Set<string>();

  /** A save heard of: `sameBrowser` when it came over the BroadcastChannel. */
  heard(revision: number, tab: string | null, sameBrowser: boolean): void {
    if (tab !== null && sameBrowser) this.browserTabs.add(tab);
    // The server's event names the tab too; keep whichever named one.
    if (tab !== null || !this.byRevision.has(revision)) this.byRevision.set(revision, tab);
    // Only recent revisions matter (the one a conflict is about): keep the map small.
    if (this.byRevision.size > 200) {
      const oldest = this.byRevision.keys().next().value;
      if (oldest !== undefined) this.byRevision.delete(oldest);
    }
  }

  /** Where `revision` was saved; null when no save of it was heard with its tab. */
  of(revision: number): SaveOrigin | null {
    const tab = this.byRevision.get(revision);
    if (tab === undefined || tab === null) return null;
    return this.browserTabs.has(tab) ? 'tab' : 'device';
  }
}
