import { JOB_FAILURE_CODES } from '@koma/domain';
import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../../src/i18n/index.ts';
import { generationJobStrings } from '../../src/generation/i18n-jobs.ts';
import { failureMessage, failureReason, refusalMessage, strippedMessage } from '../../src/generation/failure-text.ts';
import { JobTracker, secondsLeft } from '../../src/generation/processing.ts';

function flatten(tree: object, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [k, v] of flatten(value as object, path)) out.set(k, v);
  }
  return out;
}
const placeholders = (text: string) => [...text.matchAll(/{{\s*(\w+)\s*}}/g)].map((m) => m[1]).sort();

afterEach(async () => {
  await i18n.changeLanguage('en');
});

describe('the strings of jobs, failures, results and plans', () => {
  it('exist in English and Japanese with the same keys and placeholders, and are translated', () => {
    const en = flatten(generationJobStrings.en);
    const ja = flatten(generationJobStrings.ja);
    expect([...ja.keys()].sort()).toEqual([...en.keys()].sort());
    for (const [key, text] of en) {
      expect(ja.get(key), key).not.toBe('');
      expect(placeholders(ja.get(key)!), key).toEqual(placeholders(text));
      if (!/\.unknown$|withRefund$|reason$/.test(key)) expect(ja.get(key), key).not.toBe(text);
    }
  });
});

describe('failures in words', () => {
  it('gives every failure code its own reason, in both languages', async () => {
    for (const lng of ['en', 'ja'] as const) {
      await i18n.changeLanguage(lng);
      const reasons = JOB_FAILURE_CODES.map((code) => failureReason(code, 'detail'));
      expect(new Set(reasons).size, lng).toBe(reasons.length);
      for (const r of reasons) expect(r).not.toBe(i18n.t('common.failed_to_perform_image_operation'));
    }
  });

  it('says what was refunded, and that a cancel was a cancel', async () => {
    expect(failureMessage('engine_unreachable', 'ComfyUI down', 6)).toBe(
      'Failed: the engine could not be reached. 6 credits were refunded.',
    );
    expect(failureMessage('out_of_memory', '', 1)).toBe('Failed: the engine ran out of memory. 1 credit was refunded.');
    expect(failureMessage('engine_failed', 'The GPU worker fell over.', 0)).toBe(
      'Failed: the engine reported an error: The GPU worker fell over',
    );
    expect(failureMessage('cancelled', 'The job was cancelled', 4)).toBe('Cancelled. 4 credits were refunded.');
    await i18n.changeLanguage('ja');
    expect(failureMessage('engine_unreachable', 'ComfyUI down', 6)).toBe(
      '失敗しました：エンジンに接続できませんでした。6 クレジットを返金しました。',
    );
  });

  it('names a refusal’s rules and words, and the words stripped', async () => {
    const body = {
      reasons: [
        { field: 'prompt', code: 'public_figure', terms: ['Taylor Swift'] },
        { field: 'prompt', code: 'slur', terms: [] },
      ],
    };
    expect(refusalMessage(body)).toBe(
      'The prompt was refused: real public figures are not allowed (Taylor Swift); it contains a slur',
    );
    expect(refusalMessage({})).toBe('The prompt was refused: it breaks a rule');
    expect(
      strippedMessage([
        { field: 'prompt', terms: ['nude'] },
        { field: 'regions.0.prompt', terms: ['nude', 'x'] },
      ]),
    ).toBe('Removed from the prompt: nude, x');
    expect(strippedMessage(undefined)).toBeNull();
    await i18n.changeLanguage('ja');
    expect(refusalMessage({ reasons: [body.reasons[0]] })).toBe(
      'プロンプトが拒否されました：実在の著名人は描けません（Taylor Swift）',
    );
  });
});

describe('time left', () => {
  it('takes the server’s learned estimate over the default, then the measured speed', () => {
    let now = 1000;
    const states: unknown[] = [];
    const tracker = new JobTracker({ set: (s) => states.push(s), started: () => undefined, now: () => now }, 10_000);
    tracker.handle({ status: 'IN_PROGRESS', logs: [], estimate_ms: 2000 });
    expect(tracker.current.estimateMs).toBe(2000);
    expect(secondsLeft(tracker.current, 1500)).toBe(2);
    now = 5000;
    // A fifth done after 4 s: 16 s more at this pace, whatever the estimate said.
    tracker.handle({ status: 'IN_PROGRESS', logs: [], progress: 0.2 });
    expect(secondsLeft({ ...tracker.current, startedAt: 1000 }, 5000)).toBe(16);
    expect(secondsLeft({}, 5000)).toBeNull();
  });
});
