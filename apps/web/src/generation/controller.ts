// The generation side of an open document: the settings the Prompt, Model and Settings tabs edit, the credits and
// subscription dialogs, the keys g, v and e, and the context every operation module (operations/) runs in. Jobs
// themselves run in job-runner.ts.
import type { OperationKind } from '@koma/domain';
import { createHttpClient, type FetchLike } from '../api/http.ts';
import type { Plan } from '../api/types.ts';
import type { EditorSession, GenerationActions } from '../editor/session.ts';
import { loadGenerationConfig, type GenerationConfig } from './config.ts';
import { JobRunner } from './job-runner.ts';
import type { JobOp } from './jobs.ts';
import type { OperationContext } from './operations/context.ts';
import { estimatePose } from './operations/pose.ts';
import { generateAtPointer, generateFromPoseOrSketch } from './operations/txt2img.ts';
import { quote } from './requests.ts';
import { Observable } from './observable.ts';
import { SettingsStore } from './settings.ts';
import { watchShownVariation } from './variation-switch.ts';

export type { JobOp } from './jobs.ts';
export type { VideoChoice } from './video.ts';

/** What the controller needs from the signed-in account. */
export interface AccountPort {
  plan(): Plan | null;
  refreshCredits(): Promise<void>;
}

export type PlanDialog = 'credits' | 'subscription' | null;
/** Why the subscription dialog opened: a subscriber-only model, or a free account out of credits. */
export type PlanDialogReason = 'subscription_required' | 'not_enough_credits';

const registry = new WeakMap<EditorSession, GenerationController>();

/** The controller of a session (the tabs and buttons find it here). */
export function controllerOf(session: EditorSession): GenerationController | undefined {
  return registry.get(session);
}

export class GenerationController implements GenerationActions, OperationContext {
  readonly settings: SettingsStore;
  readonly jobs: JobRunner;
  /** What the server says about engines, prices and links; null until it answered (or if it could not). */
  readonly config = new Observable<GenerationConfig | null>(null);
  private readonly fetch: FetchLike | undefined;
  private costValue: number | null = null;
  private dialogValue: PlanDialog = null;
  private reasonValue: PlanDialogReason = 'not_enough_credits';
  private readonly dialogListeners = new Set<() => void>();
  private unwatch: (() => void) | null = null;

  constructor(
    readonly session: EditorSession,
    private readonly account: AccountPort,
    options: { fetch?: FetchLike; settings?: SettingsStore } = {},
  ) {
    this.settings = options.settings ?? new SettingsStore();
    this.jobs = new JobRunner(
      session,
      {
        refreshCredits: () => void this.account.refreshCredits().catch(() => undefined),
        openPlanDialog: (dialog, reason, cost) =>
          this.setDialog(
            dialog === 'plan' ? (this.account.plan() === 'subscriber' ? 'credits' : 'subscription') : dialog,
            reason,
            cost,
          ),
        quote: (kind, payload) => this.quote(kind, payload),
      },
      options.fetch,
    );
    this.fetch = options.fetch;
    registry.set(session, this);
  }

  // ---- dialogs ---------------------------------------------------------------------------------------------

  get dialog(): PlanDialog {
    return this.dialogValue;
  }

  get dialogReason(): PlanDialogReason {
    return this.reasonValue;
  }

  /** What the refused request would have cost (shown in the dialog), when known. */
  get dialogCost(): number | null {
    return this.costValue;
  }

  setDialog(value: PlanDialog, reason: PlanDialogReason = 'not_enough_credits', cost: number | null = null): void {
    this.dialogValue = value;
    this.reasonValue = reason;
    this.costValue = cost;
    for (const l of this.dialogListeners) l();
  }

  onDialog(listener: () => void): () => void {
    this.dialogListeners.add(listener);
    return () => this.dialogListeners.delete(listener);
  }

  // ---- GenerationActions (keys g, v, e) --------------------------------------------------------------------

  generateAtPointer(): void {
    generateAtPointer(this);
  }

  generateFromPoseOrSketch(): void {
    generateFromPoseOrSketch(this);
  }

  estimatePose(): void {
    estimatePose(this);
  }

  // ---- OperationContext ------------------------------------------------------------------------------------

  submit(kind: OperationKind, payload: Record<string, unknown>, estimate: number, job: JobOp): Promise<void> {
    return this.jobs.run(kind, payload, estimate, job);
  }

  quote(kind: OperationKind, payload: unknown): number | null {
    return quote(kind, payload, this.settings.state.diffusion.prompt, this.config.value);
  }

  // ---- lifecycle -------------------------------------------------------------------------------------------

  /** (Re)starts the controller with its editor: registers it and re-attaches to jobs left running. */
  start(): void {
    this.unwatch?.();
    this.unwatch = watchShownVariation(this.session);
    registry.set(this.session, this);
    this.session.generation = this;
    this.jobs.start();
    if (!this.config.value) {
      const http = createHttpClient(this.fetch ? { fetch: this.fetch } : {});
      void loadGenerationConfig(http).then((config) => this.config.set(config));
    }
  }

  /** Stops following the streams (the jobs themselves go on and are re-attached on the next visit). */
  dispose(): void {
    this.jobs.dispose();
    this.unwatch?.();
    this.unwatch = null;
    registry.delete(this.session);
  }
}
