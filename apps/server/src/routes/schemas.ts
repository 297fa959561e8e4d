import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from '@koma/domain';
import { z } from 'zod';

/** A server-made id in a path or query; anything else (paths, oversized strings) fails validation. */
export const zId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'is not a valid id');

/** `page` (from 1) and `pageSize` (default 50, at most 500) of list endpoints. */
export const zPagination = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
});

export const zUser = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  plan: z.enum(['free', 'subscriber']),
  restrictedMode: z.boolean(),
  credits: z.number().int(),
  purchasedCredits: z.number().int(),
});
