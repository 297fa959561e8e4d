/** Settings of the job pipeline, read from the environment (docs/api-generation.md lists them). */
export interface JobConfig {
  /** BullMQ on this Redis when set; else an in-process worker pool. */
  redisUrl: string | undefined;
  /** Prefix of every Redis key and channel, so several deployments (or tests) can share one Redis. */
  queuePrefix: string;
  /** Jobs running at once per lane, in each process that runs jobs. */
  concurrency: Record<string, number>;
  /** OpenAI-compatible chat endpoint for prompt expansion; the builtin expander when absent. */
  chat: { url: string; apiKey: string | undefined; model: string } | undefined;
  /** Run jobs in this process (the in-process pool). False for an HTTP process in front of BullMQ workers. */
  runLocally: boolean;
  /** Charge for the builtin engine's pictures (BUILTIN_CHARGES=true, for demos of billing); free otherwise. */
  builtinCharges: boolean;
  /** Where the editor's dialogs send people: buying credits, subscribing, setting up a real engine. */
  links: { credits?: string; subscription?: string; engineSetup?: string };
}

/** Default concurrency per lane: builtin engine 2, background removal 1 (about 1 GB each). */
export const DEFAULT_CONCURRENCY: Readonly<Record<string, number>> = {
  builtin: 2,
  background: 1,
  vision: 2,
  remote: 4,
  chat: 4,
};

function text(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const raw = env[name]?.trim();
  return raw === undefined || raw === '' ? undefined : raw;
}

function link(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const raw = text(env, name);
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`${name} must be an http(s) URL, got ${JSON.stringify(raw)}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`${name} must be an http(s) URL`);
  return url.toString();
}

export function loadJobConfig(env: NodeJS.ProcessEnv = process.env): JobConfig {
  const concurrency = { ...DEFAULT_CONCURRENCY };
  for (const lane of Object.keys(concurrency)) {
    const raw = text(env, `JOB_CONCURRENCY_${lane.toUpperCase()}`);
    if (raw === undefined) continue;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 1) throw new Error(`JOB_CONCURRENCY_${lane.toUpperCase()} must be an integer >= 1`);
    concurrency[lane] = n;
  }
  const chatUrl = text(env, 'CHAT_API_URL');
  const redisUrl = text(env, 'REDIS_URL');
  return {
    redisUrl,
    queuePrefix: text(env, 'JOB_QUEUE_PREFIX') ?? 'koma',
    concurrency,
    chat: chatUrl
      ? { url: chatUrl, apiKey: text(env, 'CHAT_API_KEY'), model: text(env, 'CHAT_MODEL') ?? 'gpt-4o-mini' }
      : undefined,
    runLocally: redisUrl === undefined,
    builtinCharges: text(env, 'BUILTIN_CHARGES')?.toLowerCase() === 'true',
    links: Object.fromEntries(
      (
        [
          ['credits', link(env, 'BUY_CREDITS_URL')],
          ['subscription', link(env, 'SUBSCRIBE_URL')],
          ['engineSetup', link(env, 'ENGINE_SETUP_URL')],
        ] as const
      ).filter(([, url]) => url !== undefined),
    ),
  };
}
