import { useEffect, useState } from 'react';

/** Whether a catalogue model or LoRA can run on the engine it routes to (GET /api/engines/availability). */
export interface Availability {
  available: boolean;
  engine: string;
  reason?: string;
  /** Runs on ComfyUI servers started without --preview-method: no step previews while it renders. */
  previewsOff?: boolean;
}

export interface EngineAvailability {
  models: Record<string, Availability>;
  loras: Record<string, Availability>;
}

let cached: Promise<EngineAvailability | undefined> | undefined;

/** Fetched once per page; a failure counts as "everything available" (the server still checks each job). */
function load(): Promise<EngineAvailability | undefined> {
  cached ??= fetch('/api/engines/availability', { credentials: 'same-origin' })
    .then(async (res) => (res.ok ? ((await res.json()) as EngineAvailability) : undefined))
    .catch(() => undefined);
  return cached;
}

export function useEngineAvailability(): EngineAvailability | undefined {
  const [value, setValue] = useState<EngineAvailability | undefined>();
  useEffect(() => {
    let live = true;
    void load().then((v) => live && setValue(v));
    return () => {
      live = false;
    };
  }, []);
  return value;
}
