import { BudgetCache } from '@koma/editor';

/**
 * Budgets for the canvas's decoded-image cache (the spec leaves the limits open; docs/decisions/web.md says why
 * these): 512 MiB on a desktop holds about 120 decoded 1024² images; a phone gets 160 MiB, under the point where
 * mobile Safari and Chrome start killing tabs.
 */
export const IMAGE_CACHE_BUDGET_BYTES = 512 * 1024 * 1024;
export const IMAGE_CACHE_BUDGET_PHONE_BYTES = 160 * 1024 * 1024;

/** The spec's small-screen phone: both sides within 480 and 896 CSS pixels. */
export function isPhoneScreen(width: number, height: number): boolean {
  return Math.min(width, height) <= 480 && Math.max(width, height) <= 896;
}

export function imageCacheBudget(width: number, height: number): number {
  return isPhoneScreen(width, height) ? IMAGE_CACHE_BUDGET_PHONE_BYTES : IMAGE_CACHE_BUDGET_BYTES;
}

/** The canvas's decoded-image cache: the pure budgeted LRU with pins from @koma/editor (tested there). */
export { BudgetCache as ImageCache };
