import { describe, expect, it } from 'vitest';
import type { DocState } from '@koma/editor';
import {
  MAX_TAG_CHARS,
  jobTag,
  parseJobTag,
  planReattach,
  unlandedJobs,
  videoOf,
  type JobOp,
  type ServerJob,
} from './jobs.ts';

const generate: JobOp = { op: 'generate', layerId: 'l1', created: true };
const tagged = (jobId: string, workspaceId: string, job: JobOp = generate): ServerJob => ({
  job_id: jobId,
  status: 'IN_PROGRESS',
  client: jobTag(workspaceId, job, 3000),
});

describe('job tags', () => {
  it('carry the document, the op and the estimate, and read back as they were sent', () => {
    const tag = jobTag('w1', { op: 'video', layerId: 'l2', model: 'wan22_i2v', duration: 5, imageId: 'img' }, 10_000);
    expect(parseJobTag(JSON.parse(JSON.stringify(tag)))).toEqual(tag);
  });

  it('leave out params that would make the tag too large for the server', () => {
    const params = { prompt: 'x'.repeat(MAX_TAG_CHARS) } as never;
    const tag = jobTag('w1', { ...generate, params }, 3000);
    expect(tag.job).toEqual(generate);
    const small = jobTag('w1', { ...generate, params: { prompt: 'a cat' } as never }, 3000);
    expect(small.job).toHaveProperty('params');
  });

  it('are refused when they are not ours', () => {
    expect(parseJobTag(null)).toBeNull();
    expect(parseJobTag('l1')).toBeNull();
    expect(parseJobTag({ workspaceId: 'w1', job: { op: 'explode', layerId: 'l1' } })).toBeNull();
    expect(parseJobTag({ workspaceId: 'w1', job: { op: 'generate' } })).toBeNull();
    expect(parseJobTag({ job: generate })).toBeNull();
  });
});

describe('planReattach', () => {
  it('follows the active jobs tagged for this document, from whichever browser, and skips the others', () => {
    const active = [
      tagged('j1', 'w1'),
      tagged('j2', 'w2'),
      { job_id: 'j3', status: 'IN_QUEUE' } as ServerJob, // untagged: sent by something else
      tagged('j1', 'w1'),
    ];
    const plan = planReattach('w1', active, []);
    expect(plan.follow).toEqual([{ jobId: 'j1', tag: jobTag('w1', generate, 3000) }]);
    expect(plan.lookUp).toEqual([]);
  });

  it('looks up the remembered jobs of this document that are no longer active (they finished meanwhile)', () => {
    const local = [
      { jobId: 'j1', workspaceId: 'w1' },
      { jobId: 'j4', workspaceId: 'w1' },
      { jobId: 'j5', workspaceId: 'w2' },
      { jobId: 'j4', workspaceId: 'w1' },
    ];
    const plan = planReattach('w1', [tagged('j1', 'w1')], local);
    expect(plan.follow.map((f) => f.jobId)).toEqual(['j1']);
    expect(plan.lookUp).toEqual(['j4']);
  });

  it('still follows an untagged job a previous version remembered with its op', () => {
    const local = [{ jobId: 'j1', workspaceId: 'w1', job: generate, estimate: 9000 }];
    const plan = planReattach('w1', [{ job_id: 'j1', status: 'IN_QUEUE' }], local);
    expect(plan.follow).toEqual([{ jobId: 'j1', tag: { v: 1, workspaceId: 'w1', job: generate, estimate: 9000 } }]);
  });
});

describe('videoOf', () => {
  it('reads the clip, engine and note of a video output', () => {
    expect(videoOf({ video: { id: 'v1', mime: 'image/webp' }, engine: 'builtin', note: 'not a video model' })).toEqual({
      id: 'v1',
      mime: 'image/webp',
      engine: 'builtin',
      note: 'not a video model',
    });
    expect(videoOf({ video: { id: 'v2', mime: 'video/mp4' } })).toEqual({
      id: 'v2',
      mime: 'video/mp4',
      engine: '',
      note: null,
    });
  });

  it('gives null for anything else', () => {
    expect(videoOf(null)).toBeNull();
    expect(videoOf({ images: [{ id: 'x' }] })).toBeNull();
    expect(videoOf({ video: { id: '', mime: 'video/mp4' } })).toBeNull();
    expect(videoOf({ video: { id: 'v1' } })).toBeNull();
  });
});

describe('unlandedJobs', () => {
  const doc = {
    layers: {
      empty: { type: 'IMAGE', data: { variations: [] } },
      filled: { type: 'IMAGE', data: { variations: [{ id: 'v1' }] } },
      text: { type: 'TEXT', data: {} },
    },
  } as unknown as Pick<DocState, 'layers'>;
  const ended = (jobId: string, layerId: string, workspaceId = 'w1', status: ServerJob['status'] = 'COMPLETED') => ({
    ...tagged(jobId, workspaceId, { ...generate, layerId }),
    status,
  });

  it('lands ended jobs of this document whose layer is still an empty placeholder, once', () => {
    const recent = [
      ended('j1', 'empty'),
      ended('j2', 'empty', 'w1', 'FAILED'),
      ended('j3', 'filled'), // landed elsewhere already: later edits stay as they are
      ended('j4', 'gone'), // its layer was removed
      ended('j5', 'text'),
      ended('j6', 'empty', 'w2'), // another document
      { job_id: 'j7', status: 'COMPLETED' } as ServerJob, // untagged
      ended('j1', 'empty'),
    ];
    expect(unlandedJobs('w1', recent, doc, { follow: [], lookUp: [] })).toEqual(['j1', 'j2']);
  });

  it('leaves out what the plan already follows or looks up', () => {
    const plan = planReattach('w1', [tagged('j1', 'w1')], [{ jobId: 'j2', workspaceId: 'w1' }]);
    const recent = [ended('j1', 'empty'), ended('j2', 'empty'), ended('j3', 'empty')];
    expect(unlandedJobs('w1', recent, doc, plan)).toEqual(['j3']);
  });
});
