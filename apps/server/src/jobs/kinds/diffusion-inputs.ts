// Inputs several diffusion handlers load the same way: controlnet images and the IP-adapter reference.
import type { NormalizedRequest } from '@koma/domain';
import type { DiffusionParams } from '../../engines/types.ts';
import type { RunContext } from './handler.ts';

export async function controlnetInputs(
  ctx: RunContext,
  controlnets: NormalizedRequest<'txt2img'>['controlnets'],
): Promise<NonNullable<DiffusionParams['controlnets']>> {
  const out: NonNullable<DiffusionParams['controlnets']> = [];
  for (const c of controlnets) out.push({ model: c.model, image: await ctx.load(c.image), strength: c.strength });
  return out;
}

/** The IP-adapter field of a task, when the request has a reference image. */
export async function ipAdapterInput(
  ctx: RunContext,
  r: { ip_adapter_image: string | null; ip_adapter_strength: number },
): Promise<Pick<DiffusionParams, 'ipAdapter'>> {
  if (!r.ip_adapter_image) return {};
  return { ipAdapter: { image: await ctx.load(r.ip_adapter_image), strength: r.ip_adapter_strength } };
}
