/**
 * What a ComfyUI server can do, from its `GET /system_stats` (server.py `system_stats`). The cut-offs were read
 * from ComfyUI's history (comfyanonymous/ComfyUI): the version-bump commits are the release points.
 * - `comfyui_version` appears in system_stats with e91662e7 (2024-08-30, the 0.2 line); before 0.3.11 it came
 *   from `git describe` and is "unknown" on installs without git (portable zips).
 * - A client-chosen `prompt_id` on POST /prompt: #8189 (260a5ca5), first released in 0.3.45. Older servers
 *   ignore it and assign `uuid4()` themselves.
 * - WebSocket feature flags (previews carrying their prompt id, type 4): also first in 0.3.45.
 * - `POST /interrupt {prompt_id}` interrupting only that prompt: #9607 (464ba1d6), first released in 0.3.57.
 *   Older servers interrupt whatever runs, possibly another user's prompt.
 * - Step previews exist only when ComfyUI runs with `--preview-method` other than `none` (comfy/cli_args.py,
 *   default none; latent_preview.py). system_stats reports the command line as `system.argv`.
 */
import { z } from 'zod';

export type Version = [number, number, number];

/** Oldest ComfyUI Koma runs jobs on: the first line that reports its version. */
export const MINIMUM_VERSION: Version = [0, 2, 0];
export const CLIENT_PROMPT_ID_SINCE: Version = [0, 3, 45];
export const TARGETED_INTERRUPT_SINCE: Version = [0, 3, 57];

export const zSystemStats = z.looseObject({
  system: z.looseObject({
    os: z.string().optional(),
    comfyui_version: z.string().optional(),
    embedded_python: z.boolean().optional(),
    argv: z.array(z.string()).optional(),
  }),
  devices: z.array(z.looseObject({ name: z.string().optional(), vram_total: z.number().optional() })).optional(),
});
export type SystemStats = z.infer<typeof zSystemStats>;

export function formatVersion(v: Version): string {
  return v.join('.');
}

/** "0.3.64", "v0.2.2-12-gabc123" (git describe) → numbers; "unknown" or nonsense → undefined. */
export function parseVersion(text: string | undefined): Version | undefined {
  const m = /(\d+)\.(\d+)\.(\d+)/.exec(text ?? '');
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
}

export function atLeast(v: Version, min: Version): boolean {
  for (let i = 0; i < 3; i++) {
    if (v[i]! !== min[i]!) return v[i]! > min[i]!;
  }
  return true;
}

export interface ServerFacts {
  /** As reported; undefined when system_stats has no comfyui_version (older than 0.2). */
  versionText: string | undefined;
  version: Version | undefined;
  /** The server keeps the prompt_id we send (else we must use the one POST /prompt returns). */
  clientPromptIds: boolean;
  /** POST /interrupt {prompt_id} only stops that prompt. */
  targetedInterrupt: boolean;
  /** `--preview-method` value; `none` (the default) means no step previews at all. */
  previewMethod: string | undefined;
  /** `nt` on Windows: model lists use backslashes. */
  os: string | undefined;
  /** Windows portable build (python_embeded). */
  portable: boolean;
}

/** The `--preview-method` value from the server's command line, `none` when absent; undefined if argv is unknown. */
export function previewMethodFromArgv(argv: string[] | undefined): string | undefined {
  if (!argv) return undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--preview-method') return argv[i + 1] ?? 'none';
    if (arg.startsWith('--preview-method=')) return arg.slice('--preview-method='.length);
  }
  return 'none';
}

export function serverFacts(stats: SystemStats): ServerFacts {
  const versionText = stats.system.comfyui_version;
  const version = parseVersion(versionText);
  return {
    versionText,
    version,
    // Unknown versions ("unknown" from a git-less install before 0.3.11) are treated as the oldest we run.
    clientPromptIds: version !== undefined && atLeast(version, CLIENT_PROMPT_ID_SINCE),
    targetedInterrupt: version !== undefined && atLeast(version, TARGETED_INTERRUPT_SINCE),
    previewMethod: previewMethodFromArgv(stats.system.argv),
    os: stats.system.os,
    portable: stats.system.embedded_python === true,
  };
}

/** Why a server is refused, or undefined when Koma can run jobs on it. */
export function versionProblem(facts: ServerFacts, service: string): string | undefined {
  const min = formatVersion(MINIMUM_VERSION);
  if (facts.versionText === undefined) {
    return `${service} is older than ComfyUI ${min} (its /system_stats reports no version); Koma needs ${min} or newer, ${formatVersion(TARGETED_INTERRUPT_SINCE)} or newer recommended`;
  }
  if (facts.version && !atLeast(facts.version, MINIMUM_VERSION)) {
    return `${service} runs ComfyUI ${facts.versionText}; Koma needs ${min} or newer, ${formatVersion(TARGETED_INTERRUPT_SINCE)} or newer recommended`;
  }
  return undefined;
}
