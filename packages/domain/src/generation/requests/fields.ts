import { z } from 'zod';
import { MAX_LORAS, MAX_SEED, RANDOM_SEED } from '../../constants.ts';
import { LIGHTNING_OPTIONS } from '../../document/generation-params.ts';
import { zLora } from '../lora.ts';
import { zControlnetInput } from '../controlnets.ts';
import { zImageRef } from '../image-ref.ts';

/** Longest prompt accepted; a guard against oversized payloads, well above what any engine reads. */
export const MAX_PROMPT_LENGTH = 4000;
/** Most controlnets, brushes and regions in one request. */
export const MAX_CONTROLNETS = 4;
export const MAX_BRUSHES = 16;
export const MAX_REGIONS = 16;

/** A whole number of pixels between min and max inclusive. */
export const zPixels = (min: number, max: number) => z.number().int().min(min).max(max);
/** A prompt that must not be empty. */
export const zRequiredPrompt = z.string().min(1).max(MAX_PROMPT_LENGTH);
/** A prompt that may be empty. */
export const zOptionalPrompt = z.string().max(MAX_PROMPT_LENGTH).default('');
export const zSeed = z.number().int().min(RANDOM_SEED).max(MAX_SEED).default(RANDOM_SEED);
export const zCfg = z.number().min(0).max(20);
export const zSteps = z.number().int().min(1).max(30);
export const zNumImages = z.number().int().min(1).max(4);
export const zUnitStrength = z.number().min(0).max(1);
export const zLoras = z.array(zLora).max(MAX_LORAS).default([]);
export const zControlnets = z.array(zControlnetInput).max(MAX_CONTROLNETS).default([]);
export const zLightning = z.enum(LIGHTNING_OPTIONS).default('none');
export const zModelId = z.string().min(1);
export const zIpAdapterImage = zImageRef.nullable().default(null);
export const zIpAdapterStrength = zUnitStrength.default(0.7);

/** What drew the request: a plain prompt, a pose layer or a sketch layer (the latter two force quality tags). */
export const GENERATION_SOURCES = ['prompt', 'pose', 'sketch'] as const;
export const zSource = z.enum(GENERATION_SOURCES).default('prompt');
