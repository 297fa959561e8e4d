import { Redis } from 'ioredis';
import type { BusMessage, JobEvent } from './types.ts';

type Listener<T> = (value: T) => void;

/**
 * Where job events meet the streams that show them. Every message is dispatched to the listeners of its job (or
 * lane) in this process; the Redis bus also carries messages between processes (workers → HTTP) over pub/sub.
 * The last IN_PROGRESS event of each running job is kept, so a re-attaching client sees the current state.
 */
export abstract class JobBus {
  private readonly byJob = new Map<string, Set<Listener<JobEvent>>>();
  private readonly byLane = new Map<string, Set<Listener<void>>>();
  private readonly cancelListeners = new Set<Listener<string>>();
  private readonly lastProgress = new Map<string, JobEvent>();

  /** Sends a message to every process (and this one). */
  abstract publish(message: BusMessage): void;
  /** Asks whichever process runs the job to abort it. */
  abstract publishCancel(jobId: string): void;
  abstract close(): Promise<void>;

  onJob(jobId: string, listener: Listener<JobEvent>): () => void {
    return add(this.byJob, jobId, listener);
  }

  onLane(lane: string, listener: Listener<void>): () => void {
    return add(this.byLane, lane, listener);
  }

  onCancel(listener: Listener<string>): () => void {
    this.cancelListeners.add(listener);
    return () => this.cancelListeners.delete(listener);
  }

  /** The latest progress of a running job seen by this process. */
  progressOf(jobId: string): JobEvent | undefined {
    return this.lastProgress.get(jobId);
  }

  protected dispatch(message: BusMessage): void {
    if (message.type === 'lane') {
      for (const listener of [...(this.byLane.get(message.lane) ?? [])]) listener();
      return;
    }
    const { event } = message;
    if (event.status === 'IN_PROGRESS') this.lastProgress.set(event.job_id, event);
    else if (event.status !== 'IN_QUEUE') this.lastProgress.delete(event.job_id);
    for (const listener of [...(this.byJob.get(event.job_id) ?? [])]) listener(event);
  }

  protected dispatchCancel(jobId: string): void {
    for (const listener of [...this.cancelListeners]) listener(jobId);
  }
}

function add<T>(map: Map<string, Set<Listener<T>>>, key: string, listener: Listener<T>): () => void {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  set.add(listener);
  return () => {
    set.delete(listener);
    if (set.size === 0 && map.get(key) === set) map.delete(key);
  };
}

/** One process: messages go straight to the listeners. */
export class LocalJobBus extends JobBus {
  publish(message: BusMessage): void {
    this.dispatch(message);
  }
  publishCancel(jobId: string): void {
    this.dispatchCancel(jobId);
  }
  async close(): Promise<void> {}
}

/** Several processes: messages go through Redis pub/sub (one publisher and one subscriber connection). */
export class RedisJobBus extends JobBus {
  private readonly pub: Redis;
  private readonly sub: Redis;
  private readonly events: string;
  private readonly cancels: string;
  readonly ready: Promise<void>;

  constructor(url: string, prefix: string) {
    super();
    this.pub = new Redis(url, { maxRetriesPerRequest: null, lazyConnect: false });
    this.sub = new Redis(url, { maxRetriesPerRequest: null, lazyConnect: false });
    this.events = `${prefix}:job-events`;
    this.cancels = `${prefix}:job-cancels`;
    this.sub.on('message', (channel: string, text: string) => {
      if (channel === this.events) this.dispatch(JSON.parse(text) as BusMessage);
      else if (channel === this.cancels) this.dispatchCancel(text);
    });
    this.ready = this.sub.subscribe(this.events, this.cancels).then(() => undefined);
  }

  publish(message: BusMessage): void {
    void this.pub.publish(this.events, JSON.stringify(message));
  }

  publishCancel(jobId: string): void {
    void this.pub.publish(this.cancels, jobId);
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.sub.quit(), this.pub.quit()]);
  }
}
