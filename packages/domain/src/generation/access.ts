import { findModelById } from './models.ts';

/** The error code the client turns into the subscription dialog (generation.md §8). */
export const SUBSCRIPTION_REQUIRED = 'SUBSCRIPTION_REQUIRED';

/** `SUBSCRIPTION_REQUIRED` when a user without a subscription asks for a subscriber-only model, else null. */
export function checkModelAccess(modelId: string, subscribed: boolean): typeof SUBSCRIPTION_REQUIRED | null {
  const model = findModelById(modelId);
  return model?.requiresSubscription === true && !subscribed ? SUBSCRIPTION_REQUIRED : null;
}
