/**
 * Chat completions (prompt expansion) through the same official `openai` client as the image engine: its
 * retries, `retry-after` handling and error types. The configured URL is the full `/chat/completions`
 * endpoint of any OpenAI-compatible server; the client wants the API root, so the suffix is removed.
 */
import OpenAI from 'openai';
import { openAiError } from './protocol.ts';

export interface ChatSettings {
  url: string;
  apiKey: string | undefined;
  model: string;
}

const clients = new Map<string, OpenAI>();

function clientFor(chat: ChatSettings): OpenAI {
  const baseURL = chat.url.replace(/\/chat\/completions\/?$/, '');
  const key = `${baseURL}\n${chat.apiKey ?? ''}`;
  let client = clients.get(key);
  if (!client) {
    // OpenAI-compatible local servers often need no key; the client insists on one, so send a placeholder.
    client = new OpenAI({ baseURL, apiKey: chat.apiKey ?? 'none', maxRetries: 2 });
    clients.set(key, client);
  }
  return client;
}

/** The assistant's text for these messages; failures become EngineErrors with the server's words. */
export async function chatCompletion(
  chat: ChatSettings,
  messages: { role: 'system' | 'user'; content: string }[],
  temperature: number,
  signal: AbortSignal,
): Promise<string> {
  try {
    const reply = await clientFor(chat).chat.completions.create(
      { model: chat.model, temperature, messages },
      { signal },
    );
    return reply.choices[0]?.message.content ?? '';
  } catch (err) {
    throw openAiError(err, signal);
  }
}
