/** zod schemas of what a ComfyUI server sends (engines.md §1.1–1.2), and decoding of its binary WS frames. */
import { z } from 'zod';

const zErrorItem = z.looseObject({
  type: z.string(),
  message: z.string(),
  details: z.string().optional(),
});

export const zNodeErrors = z.union([
  z.record(z.string(), z.looseObject({ errors: z.array(zErrorItem), class_type: z.string().optional() })),
  // Old servers send an empty list.
  z.array(z.unknown()),
]);

export const zSubmitReply = z.looseObject({
  prompt_id: z.string().min(1),
  number: z.number(),
  node_errors: zNodeErrors.optional(),
});

export const zSubmitError = z.looseObject({
  error: z.union([z.string(), zErrorItem]),
  node_errors: zNodeErrors.optional(),
});

export const zPromptInfo = z.looseObject({
  exec_info: z.looseObject({ queue_remaining: z.number() }),
});

/** Queue items are [number, prompt_id, prompt, extra_data, outputs]; only the first two matter here. */
const zQueueItem = z.tuple([z.number(), z.string()], z.unknown());
export const zQueue = z.looseObject({
  queue_running: z.array(zQueueItem),
  queue_pending: z.array(zQueueItem),
});

export const zUploadReply = z.looseObject({
  name: z.string().min(1),
  subfolder: z.string().optional().default(''),
  type: z.string().optional().default('input'),
});

const zFileRef = z.looseObject({
  filename: z.string(),
  subfolder: z.string().default(''),
  type: z.string().default('output'),
});
export type ComfyFileRef = z.infer<typeof zFileRef>;

const zHistoryEntry = z.looseObject({
  outputs: z.record(
    z.string(),
    z.looseObject({ images: z.array(zFileRef).optional(), gifs: z.array(zFileRef).optional() }),
  ),
  status: z
    .looseObject({
      status_str: z.string(),
      completed: z.boolean(),
      messages: z.array(z.tuple([z.string(), z.unknown()])).default([]),
    })
    .optional(),
});
export type ComfyHistoryEntry = z.infer<typeof zHistoryEntry>;
export const zHistory = z.record(z.string(), zHistoryEntry);

export const zWsMessage = z.looseObject({ type: z.string(), data: z.unknown() });

export const zStatusData = z.looseObject({
  status: z.looseObject({ exec_info: z.looseObject({ queue_remaining: z.number() }) }),
});
export const zPromptEvent = z.looseObject({ prompt_id: z.string() });
export const zProgressData = z.looseObject({
  prompt_id: z.string(),
  value: z.number(),
  max: z.number(),
  node: z.string().nullable().optional(),
});
export const zExecutingData = z.looseObject({ prompt_id: z.string().optional(), node: z.string().nullable() });
export const zExecutionError = z.looseObject({
  prompt_id: z.string(),
  node_id: z.string().optional(),
  node_type: z.string().optional(),
  exception_type: z.string().optional(),
  exception_message: z.string().optional(),
});

export type BinaryFrame =
  { kind: 'preview'; mime: string; bytes: Buffer; promptId?: string } | { kind: 'text'; nodeId: string; text: string };

const PREVIEW_IMAGE = 1;
const TEXT = 3;
const PREVIEW_IMAGE_WITH_METADATA = 4;

/** Decodes a binary WS frame (server.py encode_bytes / protocol.py BinaryEventTypes); undefined if unknown or short. */
export function decodeBinaryFrame(frame: Buffer): BinaryFrame | undefined {
  if (frame.length < 8) return undefined;
  const type = frame.readUInt32BE(0);
  if (type === PREVIEW_IMAGE) {
    const format = frame.readUInt32BE(4);
    return { kind: 'preview', mime: format === 2 ? 'image/png' : 'image/jpeg', bytes: frame.subarray(8) };
  }
  if (type === PREVIEW_IMAGE_WITH_METADATA) {
    const length = frame.readUInt32BE(4);
    if (frame.length < 8 + length) return undefined;
    const parsed = z
      .looseObject({ prompt_id: z.string().optional(), image_type: z.string().optional() })
      .safeParse(safeJson(frame.subarray(8, 8 + length).toString('utf8')));
    if (!parsed.success) return undefined;
    return {
      kind: 'preview',
      mime: parsed.data.image_type ?? 'image/jpeg',
      bytes: frame.subarray(8 + length),
      ...(parsed.data.prompt_id ? { promptId: parsed.data.prompt_id } : {}),
    };
  }
  if (type === TEXT) {
    const length = frame.readUInt32BE(4);
    if (frame.length < 8 + length) return undefined;
    return {
      kind: 'text',
      nodeId: frame.subarray(8, 8 + length).toString('utf8'),
      text: frame.subarray(8 + length).toString('utf8'),
    };
  }
  return undefined;
}

export function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** One readable line per failing node: `KSampler (node 3): Value not in list: ckpt_name: 'x' not in [...]`. */
export function describeNodeErrors(nodeErrors: z.infer<typeof zNodeErrors> | undefined): string[] {
  if (!nodeErrors || Array.isArray(nodeErrors)) return [];
  return Object.entries(nodeErrors).flatMap(([id, node]) =>
    node.errors.map(
      (e) => `${node.class_type ?? 'node'} (node ${id}): ${e.message}${e.details ? `: ${e.details}` : ''} [${e.type}]`,
    ),
  );
}
