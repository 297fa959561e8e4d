import { costOf } from '../costs.ts';
import { zPromptExpansionRequest, type PromptExpansionRequest } from '../requests/other-requests.ts';
import { defineOperation, noImages, promptOnly } from './define.ts';

/** Prompt expansion (POST /api/prompt_expansion): rewrites of a prompt; the rewrites are moderated again. */
export const promptExpansion = defineOperation({
  kind: 'prompt_expansion',
  endpoint: '/api/prompt_expansion',
  schema: zPromptExpansionRequest,
  normalize: (r: PromptExpansionRequest) => r,
  price: () => costOf({ kind: 'prompt_expansion' }),
  prompts: promptOnly,
  storeImages: noImages,
});
