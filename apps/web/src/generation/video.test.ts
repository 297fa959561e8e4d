import { describe, expect, it } from 'vitest';
import { costOf, findVideoModel } from '@koma/domain';
import { quote } from './requests.ts';
import { durationFor, playsAsVideo, videoRequest, videoUrl } from './video.ts';

const choice = { model: 'kling1.6_i2v', duration: 10, prompt: '  wind in the hair ', endLayerId: 'l2' };

describe('videoRequest', () => {
  it('sends the image, model, duration, trimmed prompt and an end frame to a model that takes one', () => {
    expect(videoRequest('img1', 'img2', choice, 7)).toEqual({
      image: 'img1',
      model: 'kling1.6_i2v',
      prompt: 'wind in the hair',
      duration: 10,
      end_image: 'img2',
      seed: 7,
    });
  });

  it('leaves the end frame out for a model without one, and a duration it does not offer becomes its default', () => {
    expect(videoRequest('img1', 'img2', { ...choice, model: 'wan22_i2v', prompt: '' }, -1)).toEqual({
      image: 'img1',
      model: 'wan22_i2v',
      duration: 5,
      seed: -1,
    });
  });

  it('gives null for an unknown model', () => {
    expect(videoRequest('img1', undefined, { ...choice, model: 'sora' }, 1)).toBeNull();
  });

  it('is priced at credits per second × duration, as the server charges it', () => {
    const cost = (model: string, duration: number) =>
      quote('video', videoRequest('img1', undefined, { ...choice, model, duration }, 1));
    expect(cost('wan22_i2v', 5)).toBe(250);
    expect(cost('kling1.6_i2v', 10)).toBe(1000);
    expect(cost('kling2.0_i2v', 5)).toBe(1500);
    expect(cost('vidu_q1', 5)).toBe(costOf({ kind: 'video', model: 'vidu_q1', duration: 5 }));
  });
});

describe('showing a clip', () => {
  it('keeps a duration the model offers and falls back to its default otherwise', () => {
    const kling = findVideoModel('kling2.0_i2v')!;
    expect(durationFor(kling, 10)).toBe(10);
    expect(durationFor(findVideoModel('vidu_q1')!, 10)).toBe(5);
  });

  it('plays video types in a video element and the animated WebP preview as an image', () => {
    expect(playsAsVideo('video/mp4')).toBe(true);
    expect(playsAsVideo('image/webp')).toBe(false);
  });

  it('points at the video endpoint with the id encoded', () => {
    expect(videoUrl('abc_1')).toBe('/api/videos/abc_1');
    expect(videoUrl('a/b')).toBe('/api/videos/a%2Fb');
  });
});
