import { TAB_ID } from '../../api/tab.ts';

/** A save of the open workspace made elsewhere: another tab of this browser, or another device. */
export interface RemoteSave {
  revision: number;
  /** The tab that stored it, when known (the server's `head` event does not say). */
  tab: string | null;
  /** Heard over the BroadcastChannel: a tab of this browser. */
  sameBrowser: boolean;
}

const CHANNEL = 'koma-workspace-saves';
/** Reconnection waits double from 1 s up to 30 s, and start again from 1 s once a stream opens. */
const BACKOFF_MIN_MS = 1000;
const BACKOFF_MAX_MS = 30_000;

/**
 * Hears of saves of one workspace made elsewhere: the server's event stream (every device), and a
 * BroadcastChannel between tabs of this browser (faster: no round trip). This tab's own saves are ignored.
 */
export class LiveUpdates {
  private source: EventSource | null = null;
  private channel: BroadcastChannel | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private backoff = BACKOFF_MIN_MS;
  private closed = false;

  constructor(
    private readonly workspaceId: string,
    private readonly onRemote: (save: RemoteSave) => void,
  ) {}

  start(): void {
    this.connect();
    if (typeof BroadcastChannel !== 'undefined') {
      this.channel = new BroadcastChannel(CHANNEL);
      this.channel.onmessage = (event: MessageEvent<unknown>) => {
        const m = event.data as { workspaceId?: unknown; revision?: unknown; tab?: unknown } | null;
        if (m?.workspaceId !== this.workspaceId || typeof m.revision !== 'number' || m.tab === TAB_ID) return;
        this.onRemote({ revision: m.revision, tab: typeof m.tab === 'string' ? m.tab : null, sameBrowser: true });
      };
    }
  }

  /** Tells the other tabs of this browser at once that this tab stored a revision. */
  announce(revision: number): void {
    this.channel?.postMessage({ workspaceId: this.workspaceId, revision, tab: TAB_ID });
  }

  close(): void {
    this.closed = true;
    if (this.retryTimer !== null) clearTimeout(this.retryTimer);
    // Closing the stream ends the request, and the server drops its subscription with it.
    this.source?.close();
    this.source = null;
    this.channel?.close();
    this.channel = null;
  }

  private connect(): void {
    if (this.closed || typeof EventSource === 'undefined') return;
    const source = new EventSource(`/api/workspace/${encodeURIComponent(this.workspaceId)}/events`);
    this.source = source;
    source.onopen = () => {
      this.backoff = BACKOFF_MIN_MS;
    };
    // `head` arrives first on every (re)connection: a save missed while disconnected is caught up here.
    const heard = (event: MessageEvent<unknown>, own: boolean) => {
      try {
        const data = JSON.parse(String(event.data)) as { revision?: unknown; tab?: unknown };
        if (typeof data.revision !== 'number') return;
        if (own && data.tab === TAB_ID) return;
        this.onRemote({
          revision: data.revision,
          tab: typeof data.tab === 'string' ? data.tab : null,
          sameBrowser: false,
        });
      } catch {
        // A malformed event is dropped; the next one carries the head again.
      }
    };
    source.addEventListener('head', (event: MessageEvent<unknown>) => heard(event, false));
    source.addEventListener('saved', (event: MessageEvent<unknown>) => heard(event, true));
    // The browser's own retry stops for good on an HTTP error; ours keeps going, waiting longer each time.
    source.onerror = () => {
      source.close();
      if (this.source !== source || this.closed) return;
      this.source = null;
      this.retryTimer = setTimeout(() => this.connect(), this.backoff);
      this.backoff = Math.min(BACKOFF_MAX_MS, this.backoff * 2);
    };
  }
}
