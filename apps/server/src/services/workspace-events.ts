import { EventEmitter } from 'node:events';
import { Redis } from 'ioredis';

/** A workspace was saved: every open editor of it learns the new head (issue 14 item 3). */
export interface WorkspaceSaved {
  workspaceId: string;
  revision: number;
  /** The tab that saved (the X-Koma-Tab header), so it can ignore its own save; null when not given. */
  tab: string | null;
}

/**
 * Where "saved elsewhere" events travel. In one process an in-memory emitter is enough; with several API
 * processes (REDIS_URL set) they go through Redis pub/sub so a save on one process reaches editors on another.
 */
export interface WorkspaceEvents {
  publish(event: WorkspaceSaved): void;
  /** Calls `listener` for every save of the workspace until the returned function is called. */
  subscribe(workspaceId: string, listener: (event: WorkspaceSaved) => void): () => void;
  close(): Promise<void>;
}

/** The default: events stay inside this process. */
export class LocalWorkspaceEvents implements WorkspaceEvents {
  protected readonly emitter = new EventEmitter();

  constructor() {
    // One listener per open editor tab; the default cap of 10 would warn on a busy workspace.
    this.emitter.setMaxListeners(0);
  }

  publish(event: WorkspaceSaved): void {
    this.emitter.emit(event.workspaceId, event);
  }

  subscribe(workspaceId: string, listener: (event: WorkspaceSaved) => void): () => void {
    this.emitter.on(workspaceId, listener);
    return () => this.emitter.off(workspaceId, listener);
  }

  close(): Promise<void> {
    this.emitter.removeAllListeners();
    return Promise.resolve();
  }
}

/**
 * Events through one Redis channel: every process publishes there and re-emits what it hears to its own
 * listeners (its own saves included, which arrive once, through Redis). A subscriber connection cannot run other
 * commands, hence two connections.
 */
export class RedisWorkspaceEvents extends LocalWorkspaceEvents {
  private readonly publisher: Redis;
  private readonly subscriber: Redis;
  private readonly channel: string;

  constructor(url: string, keyPrefix: string) {
    super();
    this.channel = `${keyPrefix}workspace-saved`;
    this.publisher = new Redis(url, { maxRetriesPerRequest: 2 });
    this.subscriber = new Redis(url, { maxRetriesPerRequest: null });
    // A lost event costs at most a late conflict dialog (the next save answers 409); errors are not fatal.
    this.publisher.on('error', () => undefined);
    this.subscriber.on('error', () => undefined);
    void this.subscriber.subscribe(this.channel).catch(() => undefined);
    this.subscriber.on('message', (channel: string, message: string) => {
      if (channel !== this.channel) return;
      try {
        const event = JSON.parse(message) as WorkspaceSaved;
        if (typeof event.workspaceId === 'string' && typeof event.revision === 'number') super.publish(event);
      } catch {
        // Not ours: ignore.
      }
    });
  }

  override publish(event: WorkspaceSaved): void {
    void this.publisher.publish(this.channel, JSON.stringify(event)).catch(() => undefined);
  }

  override async close(): Promise<void> {
    await super.close();
    this.subscriber.disconnect();
    this.publisher.disconnect();
  }
}

/** Redis when a URL is configured, else in-process. */
export function createWorkspaceEvents(redisUrl: string | undefined, keyPrefix: string): WorkspaceEvents {
  return redisUrl ? new RedisWorkspaceEvents(redisUrl, keyPrefix) : new LocalWorkspaceEvents();
}
