import type { JobKind } from './kinds/common.ts';
import { DIFFUSION_KINDS } from './kinds/diffusion.ts';
import { MEDIA_KINDS } from './kinds/media.ts';

export type { JobKind, OutputImage, PreparedJob, Report, RunningJob } from './kinds/common.ts';
export { zOutpaintRequest } from './kinds/diffusion.ts';

/** The typed registry: every job kind by name (diffusion in kinds/diffusion.ts, the rest in kinds/media.ts). */
export const JOB_KINDS: Readonly<Record<string, JobKind>> = Object.fromEntries(
  [...DIFFUSION_KINDS, ...MEDIA_KINDS].map((k) => [k.name, k]),
);
