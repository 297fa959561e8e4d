/**
 * Runs lookups a few at a time. The browser opens six connections to the server; the recipe lookups of a page's
 * pictures (one GET /api/flow_images each) used to take them all at once, right when the page's pictures were
 * downloading on the same connections.
 */
export class LookupQueue {
  private readonly waiting: (() => Promise<unknown>)[] = [];
  private running = 0;

  constructor(private readonly atOnce: number) {}

  /** Runs `task` once fewer than `atOnce` others are running; its outcome is the task's own concern. */
  add(task: () => Promise<unknown>): void {
    this.waiting.push(task);
    this.next();
  }

  private next(): void {
    while (this.running < this.atOnce) {
      const task = this.waiting.shift();
      if (!task) return;
      this.running++;
      void task()
        .catch(() => undefined)
        .finally(() => {
          this.running--;
          this.next();
        });
    }
  }
}
