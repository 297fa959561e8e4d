import { describe, expect, it } from 'vitest';
import { SUBSCRIPTION_REQUIRED } from '@koma/domain';
import { ApiError } from '../../api/ApiError.ts';
import { JobFailedError } from '../stream.ts';
import '../i18n-jobs.ts';
import { asCompositeJob, compositeFailureText, responseText } from './errors.ts';

describe('responseText', () => {
  it('shows what the server answered before the job, or what the job failed with', () => {
    const invalid = new ApiError(400, 'invalid_request', 'regions.0.prompt must have at least 1 character');
    expect(responseText(invalid)).toBe('regions.0.prompt must have at least 1 character');
    // A moderation refusal names its rule and the words in the user's language, not the server's English.
    const rejected = new ApiError(400, 'prompt_rejected', 'prompt: Prompts may not depict real public figures.', {
      error: 'prompt_rejected',
      reasons: [{ field: 'prompt', code: 'public_figure', terms: ['Taylor Swift'] }],
    });
    expect(responseText(rejected)).toBe('The prompt was refused: real public figures are not allowed (Taylor Swift)');
    expect(responseText(new JobFailedError('Brush 1 needs a prompt', 'validation', 'j1'))).toBe(
      'Brush 1 needs a prompt',
    );
    expect(responseText(new Error('The job returned no images'))).toBe('The job returned no images');
  });

  it('leaves the credits and subscription dialogs, a cancel and a wordless error to the usual handling', () => {
    expect(responseText(new ApiError(400, 'not_enough_credits', 'Not enough credits'))).toBeNull();
    expect(responseText(new ApiError(403, SUBSCRIPTION_REQUIRED, 'Subscription required'))).toBeNull();
    expect(responseText(new JobFailedError('Cancelled', 'cancelled', 'j1'))).toBeNull();
    expect(responseText(new JobFailedError('', 'engine_failed', 'j1'))).toBeNull();
    expect(responseText('boom')).toBeNull();
  });
});

describe('compositeFailureText', () => {
  it('answers only for layers whose regional or brush-based job is running', async () => {
    const error = new JobFailedError('Region 1 needs a prompt', 'validation', 'j1');
    expect(compositeFailureText('layer-1', error)).toBeNull();
    let during: string | null = null;
    await asCompositeJob('layer-1', () => {
      during = compositeFailureText('layer-1', error);
      return Promise.resolve();
    });
    expect(during).toBe('Region 1 needs a prompt');
    expect(compositeFailureText('layer-1', error)).toBeNull();
  });
});
