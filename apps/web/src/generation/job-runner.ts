// Running the jobs of one open document: submit and follow each job's stream, show its progress on its layer,
// land its output or report its failure, cancel it, and after a (re)load find the document's jobs again — those
// still running (sent from any browser) and those that ended while every page was away.
import { operationOf, type OperationKind } from '@koma/domain';
import { removeLayers } from '@koma/editor';
import { isApiError } from '../api/ApiError.ts';
import { createHttpClient, type FetchLike } from '../api/http.ts';
import type { EditorSession } from '../editor/session.ts';
import { failureText, strippedMessage } from './failure-text.ts';
import { recreation, retryTarget, type Recreation } from './job-retry.ts';
import { JobList } from './job-list.ts';
import { reportFailure, type PlanDialogOpener } from './outcome.ts';
import { landOutput } from './operations/registry.ts';
import { JobTracker } from './processing.ts';
import { compositeFailureText } from './regional/errors.ts';
import { JobFailedError, attachJob, newIdempotencyKey, submitJob, type StreamOptions } from './stream.ts';
import {
  cancelJob,
  connectionLost,
  forgetJob,
  jobTag,
  listJobs,
  parseJobTag,
  planReattach,
  rememberJob,
  storedJobs,
  unlandedJobs,
  type JobOp,
  type ServerJob,
} from './jobs.ts';

/** What the runner needs besides the session: the account's balance, and the credits/subscription dialogs. */
export interface JobRunnerHooks {
  refreshCredits(): void;
  /** Opens a plan dialog for a request refused for credits or plan, with what that request would have cost. */
  openPlanDialog(
    dialog: Parameters<PlanDialogOpener>[0],
    reason: Parameters<PlanDialogOpener>[1],
    cost: number | null,
  ): void;
  /** What a request costs as the editor quotes it (for the dialogs, and the queue until the server says). */
  quote(kind: OperationKind, payload: unknown): number | null;
}

export class JobRunner {
  /** Every job of this page, for the queue panel. */
  readonly list = new JobList();
  private readonly aborts = new Map<string, AbortController>();
  /** The job followed for each layer (to cancel it, and so a job is never followed twice). */
  private readonly jobsByLayer = new Map<string, string>();
  /** Counts starts: a re-attach begun before a restart leaves the jobs to the newer one. */
  private epoch = 0;
  private disposed = false;
  /** Set when the page goes away: streams cut by the unload are not failures. */
  private leaving = false;
  private readonly onPageHide = (): void => {
    this.leaving = true;
  };

  constructor(
    private readonly session: EditorSession,
    private readonly hooks: JobRunnerHooks,
    private readonly fetch: FetchLike | undefined,
  ) {}

  private streamOptions(
    layerId: string,
    estimate: number,
    entry: string,
    onJobId: (id: string) => void,
  ): StreamOptions & { tracker: JobTracker } {
    const abort = new AbortController();
    this.aborts.get(layerId)?.abort();
    this.aborts.set(layerId, abort);
    const tracker = new JobTracker(
      {
        set: (state) => {
          if (!this.disposed) this.session.ui.setProcessing(layerId, state);
          this.list.track(entry, state);
        },
        started: () => this.hooks.refreshCredits(),
        now: () => Date.now(),
      },
      estimate,
    );
    let known: string | undefined;
    return {
      tracker,
      signal: abort.signal,
      ...(this.fetch ? { fetch: this.fetch } : {}),
      onEvent: (event) => {
        if (event.job_id && event.job_id !== known) {
          known = event.job_id;
          onJobId(event.job_id);
          // The charge is taken when the job is accepted: the balance shows it now, not when the job starts.
          this.hooks.refreshCredits();
          this.list.update(entry, { jobId: event.job_id });
        }
        if (event.status === 'IN_QUEUE') {
          if (typeof event.cost === 'number') this.list.update(entry, { cost: event.cost });
          const stripped = strippedMessage(event.stripped);
          if (stripped && !this.disposed) this.session.ui.notify(stripped);
        }
        tracker.handle(event);
      },
    };
  }

  /**
   * Submits a job for a layer, shows its progress, applies the output or undoes what it added. The job carries a
   * tag naming the document and what to do with its output, so a reload (or another browser) can re-attach.
   */
  async run(kind: OperationKind, payload: Record<string, unknown>, estimate: number, job: JobOp): Promise<void> {
    let jobId: string | undefined;
    const workspaceId = this.session.workspaceId;
    const recreate = recreation(this.session, job);
    const cost = this.hooks.quote(kind, payload);
    const entry = this.list.add({
      kind,
      layerId: job.layerId,
      ...(cost !== null ? { cost } : {}),
      retry: () => void this.retry(kind, payload, estimate, job, recreate),
    });
    const options = this.streamOptions(job.layerId, estimate, entry, (id) => {
      jobId = id;
      this.jobsByLayer.set(job.layerId, id);
      this.remember(id);
    });
    options.tracker.begin();
    const version = this.session.editor.version;
    let keep = false;
    try {
      let output: unknown;
      try {
        const body = { ...payload, client: jobTag(workspaceId, job, estimate) };
        const submit = { ...options, idempotencyKey: newIdempotencyKey() };
        try {
          output = await submitJob(operationOf(kind).endpoint, body, submit);
        } catch (error) {
          // Lost before the server said which job it made: send the very request again under the same key, once.
          // The server answers with the job the first one made, if it made one, and charges nothing more.
          if (!jobId && !this.leaving && !options.signal?.aborted && connectionLost(error)) {
            output = await submitJob(operationOf(kind).endpoint, body, submit);
          } else throw error;
        }
      } catch (error) {
        // A dropped connection is not a failed job: follow it again by id, once.
        if (jobId && !this.leaving && connectionLost(error)) output = await attachJob(jobId, options);
        else throw error;
      }
      landOutput(this.session, job, output);
      this.list.update(entry, { status: 'COMPLETED', progress: 1 });
    } catch (error) {
      // Leaving the page (or the editor) or losing the connection keeps the job: the next visit re-attaches.
      keep = options.signal?.aborted === true || this.leaving || (jobId !== undefined && connectionLost(error));
      if (!keep) {
        this.list.update(entry, { status: 'FAILED', failure: failureText(error) });
        this.failed(job, error, version, () => cost);
      }
    } finally {
      if (jobId && !keep) forgetJob(jobId);
      this.release(job.layerId, jobId, options.signal);
    }
  }

  private release(layerId: string, jobId: string | undefined, signal: AbortSignal | undefined): void {
    if (jobId && this.jobsByLayer.get(layerId) === jobId) this.jobsByLayer.delete(layerId);
    if (this.aborts.get(layerId)?.signal === signal) this.aborts.delete(layerId);
    if (!this.disposed) this.session.ui.setProcessing(layerId, null);
  }

  /** Sends a failed job's request again, into its layer, or into a new one like it when the failure took it away. */
  private async retry(
    kind: OperationKind,
    payload: Record<string, unknown>,
    estimate: number,
    job: JobOp,
    recreate: Recreation | null,
  ): Promise<void> {
    const target = retryTarget(this.session, job, recreate);
    if (target) await this.run(kind, payload, estimate, target);
  }

  private failed(job: JobOp, error: unknown, versionAfterAdd: number, cost: () => number | null = () => null): void {
    const editor = this.session.editor;
    // A failed generation undoes the layer it added; a failed inpaint or outpaint removes its placeholder. The
    // undone step is forgotten: redo must not bring back a layer that will never get its image.
    if ((job.op === 'generate' && job.created) || (job.op === 'variations' && job.placeholder)) {
      if (editor.doc.layers[job.layerId]) {
        if (editor.version === versionAfterAdd && editor.undoName === 'Add image') editor.undoAndForget();
        else editor.execute(removeLayers, { ids: [job.layerId] });
      }
    }
    // A job that ended FAILED was refunded by the server: show the balance it gave back.
    if (error instanceof JobFailedError) this.hooks.refreshCredits();
    const text = compositeFailureText(job.layerId, error); // regional and brush-based: the server's words
    if (text) return this.session.ui.notify(text, 'error');
    reportFailure(this.session, job, error, (dialog, reason) => this.hooks.openPlanDialog(dialog, reason, cost()));
  }

  /** Cancels the job running for a layer (refunded by the server); its stream then ends as cancelled. */
  async cancel(layerId: string): Promise<void> {
    const jobId = this.jobsByLayer.get(layerId);
    if (jobId) await cancelJob(jobId, this.fetch);
  }

  /** Cancels a job by id (the queue panel lists jobs of other documents too). */
  async cancelJob(jobId: string): Promise<void> {
    await cancelJob(jobId, this.fetch);
  }

  /** True when a job of this document runs for the layer (so it can be cancelled). */
  hasJob(layerId: string): boolean {
    return this.jobsByLayer.has(layerId);
  }

  private remember(jobId: string): void {
    rememberJob({ jobId, workspaceId: this.session.workspaceId });
    // Save now so a reload (or another browser) finds the layer the job belongs to.
    void this.session.autosave.saveNow();
  }

  /**
   * After a (re)load: follows every active job the server lists for this document (sent from any browser), and
   * lands jobs that ended while the page was away: remembered here, or for a placeholder still without a picture.
   */
  async reattach(): Promise<void> {
    const epoch = this.epoch;
    const http = createHttpClient(this.fetch ? { fetch: this.fetch } : {});
    const lists = await listJobs(http).catch((error: unknown) => {
      console.error('Could not list the running jobs', error);
      return null;
    });
    if (!lists || this.disposed || epoch !== this.epoch) return;
    const workspaceId = this.session.workspaceId;
    const plan = planReattach(workspaceId, lists.active, storedJobs());
    plan.lookUp.push(...unlandedJobs(workspaceId, lists.recent, this.session.editor.doc, plan));
    await Promise.all([
      ...plan.follow.map(({ jobId, tag }) =>
        this.follow(jobId, tag.job, tag.estimate, lists.active.find((j) => j.job_id === jobId)?.kind),
      ),
      ...plan.lookUp.map(async (jobId) => {
        let job: ServerJob;
        try {
          job = await http.request<ServerJob>('GET', `/api/jobs/${encodeURIComponent(jobId)}`);
        } catch (error) {
          // Gone (404: another account, or deleted): nothing to land. Otherwise try again on the next visit.
          if (isApiError(error) && error.status === 404) forgetJob(jobId);
          else console.error('Could not look up a job', error);
          return;
        }
        if (this.disposed || epoch !== this.epoch) return;
        const tag = parseJobTag(job.client) ?? parseJobTag({ ...storedJobs().find((j) => j.jobId === jobId) });
        if (!tag || tag.workspaceId !== workspaceId) {
          forgetJob(jobId);
          return;
        }
        if (job.status === 'IN_QUEUE' || job.status === 'IN_PROGRESS') {
          await this.follow(jobId, tag.job, tag.estimate, job.kind); // it started again (a restart) since the list
          return;
        }
        this.land(jobId, tag.job, job);
      }),
    ]);
  }

  /** Follows a job that is already running for a layer of this document, then applies or reports its end. */
  private async follow(jobId: string, job: JobOp, estimate: number, kind = 'job'): Promise<void> {
    if (this.jobsByLayer.get(job.layerId) === jobId) return; // already followed
    if (!this.session.editor.doc.layers[job.layerId]) {
      forgetJob(jobId); // its layer was removed
      return;
    }
    rememberJob({ jobId, workspaceId: this.session.workspaceId });
    this.jobsByLayer.set(job.layerId, jobId);
    const entry = this.list.byJobId(jobId)?.key ?? this.list.add({ kind, layerId: job.layerId, jobId });
    const options = this.streamOptions(job.layerId, estimate, entry, () => undefined);
    options.tracker.begin();
    let keep = false;
    try {
      landOutput(this.session, job, await attachJob(jobId, options));
      this.list.update(entry, { status: 'COMPLETED', progress: 1 });
    } catch (error) {
      keep = options.signal?.aborted === true || this.leaving || connectionLost(error);
      // A job the server no longer knows (404) is dropped quietly; a real failure is reported.
      if (!keep) this.list.update(entry, { status: 'FAILED', failure: failureText(error) });
      if (!keep && !(isApiError(error) && error.status === 404)) this.failed(job, error, -1);
    } finally {
      if (!keep) forgetJob(jobId);
      this.release(job.layerId, jobId, options.signal);
    }
  }

  /** A job that ended while the page was away: its output lands, or its failure removes the placeholder. */
  private land(jobId: string, job: JobOp, result: ServerJob): void {
    forgetJob(jobId);
    if (!this.session.editor.doc.layers[job.layerId]) return;
    try {
      if (result.status === 'COMPLETED') {
        landOutput(this.session, job, result.output);
        return;
      }
      throw new JobFailedError(result.error ?? 'The job failed', result.code, jobId, result.refunded ?? 0);
    } catch (error) {
      this.failed(job, error, -1);
    }
  }

  /** (Re)starts with the editor: re-attaches to the jobs left running. */
  start(): void {
    this.disposed = false;
    this.epoch++;
    this.leaving = false;
    window.addEventListener('pagehide', this.onPageHide);
    void this.reattach();
  }

  /** Stops following the streams (the jobs themselves go on and are re-attached on the next visit). */
  dispose(): void {
    this.disposed = true;
    window.removeEventListener('pagehide', this.onPageHide);
    for (const abort of this.aborts.values()) abort.abort();
    this.aborts.clear();
  }
}
