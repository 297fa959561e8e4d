import { useState } from 'react';
import { VIDEO_MODELS, findVideoModel, type LayerVideo } from '@koma/domain';
import { removeVideo, type LayerNode } from '@koma/editor';
import { useDoc } from '../editor/hooks.ts';
import type { EditorSession } from '../editor/session.ts';
import { useT } from '../i18n/index.ts';
import { useController, useSettings } from './hooks.ts';
import { imageToVideo, videoPayload } from './operations/video.ts';
import { durationFor, playsAsVideo, videoUrl } from './video.ts';
import './i18n.ts';
import './video.css';

/**
 * The image-to-video form of an image layer: model (with its credits per second), length, prompt, and an end
 * frame from another image layer for the models that take one; the price is on the button before sending.
 */
export function VideoForm({
  session,
  node,
  busy,
  onSent,
}: {
  session: EditorSession;
  node: LayerNode<'IMAGE'>;
  busy: boolean;
  onSent: () => void;
}) {
  const t = useT();
  const controller = useController(session);
  useSettings(controller); // the seed is the settings' seed
  const doc = useDoc(session);
  const [modelId, setModelId] = useState<string>(VIDEO_MODELS[0]!.id);
  const [duration, setDuration] = useState(5);
  const [prompt, setPrompt] = useState('');
  const [endLayerId, setEndLayerId] = useState('');
  const model = findVideoModel(modelId) ?? VIDEO_MODELS[0]!;
  const seconds = durationFor(model, duration);
  const ends = Object.values(doc.layers).filter(
    (l): l is LayerNode<'IMAGE'> => l.type === 'IMAGE' && l.id !== node.id && l.data.variations.length > 0,
  );
  const end = model.supports_end_frame && ends.some((l) => l.id === endLayerId) ? endLayerId : null;
  const choice = { model: model.id, duration: seconds, prompt, endLayerId: end };
  const credits = controller.quote('video', videoPayload(controller, node.id, choice));
  return (
    <div className="gen-video-form" data-testid="video-form">
      <strong className="small">{t('generation.video.title')}</strong>
      <label className="field">
        <span>{t('generation.video.model')}</span>
        <select value={model.id} data-testid="video-model" onChange={(e) => setModelId(e.target.value)}>
          {VIDEO_MODELS.map((m) => (
            <option key={m.id} value={m.id}>
              {t('generation.video.modelOption', { name: m.name, credits: m.credits_per_second })}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span>{t('generation.video.duration')}</span>
        <select value={seconds} data-testid="video-duration" onChange={(e) => setDuration(Number(e.target.value))}>
          {model.durations.map((d) => (
            <option key={d} value={d}>
              {t('generation.video.seconds', { n: d })}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span>{t('generation.video.prompt')}</span>
        <input value={prompt} data-testid="video-prompt" onChange={(e) => setPrompt(e.target.value)} />
      </label>
      {model.supports_end_frame && (
        <label className="field">
          <span>{t('generation.video.endFrame')}</span>
          <select value={end ?? ''} data-testid="video-end-frame" onChange={(e) => setEndLayerId(e.target.value)}>
            <option value="">{t('generation.video.endFrameNone')}</option>
            {ends.map((l) => (
              <option key={l.id} value={l.id}>
                {l.name || l.id}
              </option>
            ))}
          </select>
        </label>
      )}
      <button
        type="button"
        className="button button--small button--primary"
        disabled={busy || credits === null}
        data-testid="video-run"
        onClick={() => {
          onSent();
          void imageToVideo(controller, node.id, choice);
        }}
      >
        {credits === null
          ? t('generation.video.make')
          : t('generation.ops.withCost', { label: t('generation.video.make'), credits })}
      </button>
    </div>
  );
}

/** The clips made from the layer, each playable in place: a <video>, or an <img> for the animated preview. */
export function VideoClips({ session, node }: { session: EditorSession; node: LayerNode<'IMAGE'> }) {
  const t = useT();
  if (node.data.videos.length === 0) return null;
  return (
    <div className="gen-videos" data-testid="video-clips">
      <strong className="small">{t('generation.video.clips')}</strong>
      {node.data.videos.map((video) => (
        <VideoClip
          key={video.id}
          video={video}
          onRemove={() => session.editor.execute(removeVideo, { id: node.id, videoId: video.id })}
        />
      ))}
    </div>
  );
}

function VideoClip({ video, onRemove }: { video: LayerVideo; onRemove: () => void }) {
  const t = useT();
  const [failed, setFailed] = useState(false);
  const name = findVideoModel(video.model)?.name ?? video.model;
  // The builtin engine's note is the server's English text: it is shown in the user's language instead.
  const note = video.engine === 'builtin' ? t('generation.video.builtinNote') : video.note;
  return (
    <figure className="gen-video" data-testid="video-clip" data-video-id={video.id} data-failed={failed}>
      {failed ? (
        <p className="gen-video__error" role="alert" data-testid="video-error">
          {t('generation.video.failedToLoad')}
        </p>
      ) : playsAsVideo(video.mime) ? (
        <video
          className="gen-video__player"
          src={videoUrl(video.id)}
          controls
          loop
          muted
          playsInline
          preload="metadata"
          data-testid="video-player"
          onError={() => setFailed(true)}
        />
      ) : (
        <img
          className="gen-video__player"
          src={videoUrl(video.id)}
          alt={t('generation.video.clip', { model: name, n: video.duration })}
          data-testid="video-preview"
          onError={() => setFailed(true)}
        />
      )}
      <figcaption className="small">
        {t('generation.video.clip', { model: name, n: video.duration })}
        {note && (
          <span className="muted gen-video__note" data-testid="video-note">
            {note}
          </span>
        )}
      </figcaption>
      <button type="button" className="button button--small" data-testid="video-remove" onClick={onRemove}>
        {t('generation.video.remove')}
      </button>
    </figure>
  );
}
