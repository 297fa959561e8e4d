/**
 * ComfyUI's 400 reply to POST /prompt (server.py `post_prompt`, execution.py `validate_prompt`) turned into the
 * shared failure reasons: an unknown node class is `node_missing` (0.3.64 says `invalid_prompt` "Cannot execute
 * because node X does not exist.", newer servers `missing_node_type`), a model combo value that is not in the
 * server's list is `model_missing`, anything else `engine_rejected`.
 */
import { EngineError } from '../errors.ts';
import { nodeSource } from './capabilities.ts';
import { describeNodeErrors, zSubmitError } from './protocol.ts';
import { FILE_INPUTS } from './resolve.ts';

export function submitError(service: string, body: unknown): EngineError {
  const parsed = zSubmitError.safeParse(body);
  if (!parsed.success) return new EngineError('engine_rejected', `${service} rejected the workflow`, body);
  const { error, node_errors } = parsed.data;
  if (typeof error === 'string')
    return new EngineError('engine_rejected', `${service} rejected the workflow: ${error}`, body);
  const unknownNode = /node (\S+) does not exist|Node '([^']+)' not found/.exec(error.message);
  if (error.type === 'missing_node_type' || unknownNode) {
    const node = unknownNode?.[1] ?? unknownNode?.[2] ?? 'a node';
    return new EngineError('node_missing', `${service} lacks the node ${node} (${nodeSource(node)})`, body);
  }
  const files = Array.isArray(node_errors)
    ? []
    : Object.values(node_errors ?? {}).flatMap((n) =>
        n.errors.flatMap((e) => {
          if (e.type !== 'value_not_in_list') return [];
          const input = /^(\w+): '(.*)' not in/.exec(e.details ?? '');
          const spec = FILE_INPUTS.find((f) => f.node === n.class_type && f.input === input?.[1]);
          return spec && input ? [`models/${spec.folder}/${input[2]}`] : [];
        }),
      );
  const head = `${error.message}${error.details ? `: ${error.details}` : ''}`;
  const lines = describeNodeErrors(node_errors);
  if (files.length > 0) {
    return new EngineError(
      'model_missing',
      [`${service} has no file ${[...new Set(files)].join(', ')}`, ...lines].join('\n'),
      body,
    );
  }
  return new EngineError('engine_rejected', [`ComfyUI rejected the workflow: ${head}`, ...lines].join('\n'), body);
}
