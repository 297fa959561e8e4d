/**
 * ComfyUI's prompt validation, ported from execution.py v0.3.64 (`validate_prompt`, `validate_inputs`) and
 * comfy_execution/validation.py (`validate_node_input`), run against a served /object_info. Error types,
 * messages and details are ComfyUI's own strings, so tests see the 400 body a real server sends.
 */

export type Graph = Record<string, { class_type?: string; inputs?: Record<string, unknown> }>;
export type NodeSchema = {
  input: { required?: Record<string, unknown[]>; optional?: Record<string, unknown[]> };
  output: string[];
  output_node?: boolean;
};
export type Schema = Record<string, NodeSchema>;

export interface ValidationError {
  type: string;
  message: string;
  details: string;
  extra_info: Record<string, unknown>;
}

export interface ValidationResult {
  ok: boolean;
  error?: ValidationError;
  goodOutputs: string[];
  nodeErrors: Record<string, { errors: ValidationError[]; dependent_outputs: string[]; class_type: string }>;
}

/** VALIDATE_INPUTS of a node class, by input: returns true or the complaint (nodes.py LoadImage). */
export type CustomValidators = Record<string, Record<string, (value: unknown) => true | string>>;

class PyError extends Error {}

function err(type: string, message: string, details: string, extra: Record<string, unknown> = {}): ValidationError {
  return { type, message, details, extra_info: extra };
}

/** Python's int()/float() on a JSON value, raising where Python raises. */
function convert(type: string, val: unknown): unknown {
  if (type === 'INT') {
    if (typeof val === 'number') return Math.trunc(val);
    if (typeof val === 'boolean') return val ? 1 : 0;
    if (typeof val === 'string' && /^\s*[-+]?\d+\s*$/.test(val)) return Number(val);
    throw new PyError(`invalid literal for int() with base 10: '${String(val)}'`);
  }
  if (type === 'FLOAT') {
    if (typeof val === 'number') return val;
    if (typeof val === 'boolean') return val ? 1 : 0;
    if (typeof val === 'string' && val.trim() !== '' && !Number.isNaN(Number(val))) return Number(val);
    throw new PyError(`could not convert string to float: '${String(val)}'`);
  }
  if (type === 'STRING') return typeof val === 'string' ? val : JSON.stringify(val);
  if (type === 'BOOLEAN') return Boolean(val);
  return val;
}

/** validate_node_input, non-strict: equal, or comma-separated type sets that overlap ("*" matches anything). */
function typesMatch(received: string, wanted: unknown): boolean {
  if (received === wanted || received === '*' || wanted === '*') return true;
  if (typeof wanted !== 'string') return false;
  const a = new Set(received.split(',').map((t) => t.trim()));
  return wanted.split(',').some((t) => a.has(t.trim()));
}

export function validatePrompt(prompt: Graph, schema: Schema, custom: CustomValidators): ValidationResult {
  const outputs: string[] = [];
  for (const [id, node] of Object.entries(prompt)) {
    if (!node.class_type) {
      const error = err(
        'invalid_prompt',
        'Cannot execute because a node is missing the class_type property.',
        `Node ID '#${id}'`,
      );
      return { ok: false, error, goodOutputs: [], nodeErrors: {} };
    }
    const cls = schema[node.class_type];
    if (!cls) {
      const error = err(
        'invalid_prompt',
        `Cannot execute because node ${node.class_type} does not exist.`,
        `Node ID '#${id}'`,
      );
      return { ok: false, error, goodOutputs: [], nodeErrors: {} };
    }
    if (cls.output_node) outputs.push(id);
  }
  if (outputs.length === 0) {
    return { ok: false, error: err('prompt_no_outputs', 'Prompt has no outputs', ''), goodOutputs: [], nodeErrors: {} };
  }

  const validated = new Map<string, { ok: boolean; errors: ValidationError[] }>();
  const validateInputs = (id: string): { ok: boolean; errors: ValidationError[] } => {
    const done = validated.get(id);
    if (done) return done;
    const node = prompt[id]!;
    const inputs = node.inputs ?? {};
    const cls = schema[node.class_type!]!;
    const checks = custom[node.class_type!] ?? {};
    const specs: [string, unknown[], 'required' | 'optional'][] = [
      ...Object.entries(cls.input.required ?? {}).map(([k, v]): [string, unknown[], 'required'] => [k, v, 'required']),
      ...Object.entries(cls.input.optional ?? {}).map(([k, v]): [string, unknown[], 'optional'] => [k, v, 'optional']),
    ];
    const errors: ValidationError[] = [];
    let valid = true;
    for (const [x, spec, category] of specs) {
      const inputType = spec[0];
      const extra = (spec[1] ?? {}) as { min?: number; max?: number };
      if (!(x in inputs)) {
        if (category === 'required') {
          errors.push(err('required_input_missing', 'Required input is missing', x, { input_name: x }));
        }
        continue;
      }
      let val = inputs[x];
      if (Array.isArray(val)) {
        if (val.length !== 2) {
          errors.push(
            err('bad_linked_input', 'Bad linked input, must be a length-2 list of [node_id, slot_index]', x, {
              input_name: x,
              received_value: val,
            }),
          );
          continue;
        }
        const [oId, slot] = val as [unknown, unknown];
        // prompt[o_id]['class_type'] and RETURN_TYPES[val[1]] raise KeyError/IndexError in Python.
        const source = prompt[String(oId)];
        if (!source) throw new PyError(`'${String(oId)}'`);
        const returns = schema[source.class_type!]?.output ?? [];
        const received = typeof slot === 'number' ? returns[slot] : undefined;
        if (received === undefined) throw new PyError('tuple index out of range');
        if (!typesMatch(received, inputType)) {
          errors.push(
            err(
              'return_type_mismatch',
              'Return type mismatch between linked nodes',
              `${x}, received_type(${received}) mismatch input_type(${String(inputType)})`,
              { input_name: x, received_type: received, linked_node: val },
            ),
          );
          continue;
        }
        try {
          const r = validateInputs(String(oId));
          if (!r.ok) valid = false;
        } catch (ex) {
          valid = false;
          validated.set(String(oId), {
            ok: false,
            errors: [
              err(
                'exception_during_inner_validation',
                'Exception when validating inner node',
                String((ex as Error).message),
                {
                  input_name: x,
                  linked_node: val,
                },
              ),
            ],
          });
        }
        continue;
      }
      try {
        if (typeof inputType === 'string') val = convert(inputType, val);
      } catch (ex) {
        errors.push(
          err(
            'invalid_input_type',
            `Failed to convert an input value to a ${String(inputType)} value`,
            `${x}, ${String(val)}, ${(ex as Error).message}`,
            { input_name: x, received_value: val },
          ),
        );
        continue;
      }
      const check = checks[x];
      if (check) {
        const r = check(val);
        if (r !== true) {
          errors.push(
            err('custom_validation_failed', 'Custom validation failed for node', `${x} - ${r}`, { input_name: x }),
          );
        }
        continue;
      }
      if (typeof extra.min === 'number' && typeof val === 'number' && val < extra.min) {
        errors.push(
          err('value_smaller_than_min', `Value ${val} smaller than min of ${extra.min}`, x, { input_name: x }),
        );
        continue;
      }
      if (typeof extra.max === 'number' && typeof val === 'number' && val > extra.max) {
        errors.push(err('value_bigger_than_max', `Value ${val} bigger than max of ${extra.max}`, x, { input_name: x }));
        continue;
      }
      if (Array.isArray(inputType) && !inputType.includes(val)) {
        const listInfo = inputType.length > 20 ? `(list of length ${inputType.length})` : pyList(inputType);
        errors.push(
          err('value_not_in_list', 'Value not in list', `${x}: '${String(val)}' not in ${listInfo}`, {
            input_name: x,
            received_value: val,
          }),
        );
      }
    }
    const result = { ok: errors.length === 0 && valid, errors };
    validated.set(id, result);
    return result;
  };

  const goodOutputs: string[] = [];
  const failed: [string, ValidationError[]][] = [];
  const nodeErrors: ValidationResult['nodeErrors'] = {};
  for (const o of outputs) {
    let ok: boolean;
    let reasons: ValidationError[];
    try {
      ({ ok, errors: reasons } = validateInputs(o));
    } catch (ex) {
      ok = false;
      reasons = [err('exception_during_validation', 'Exception when validating node', String((ex as Error).message))];
      validated.set(o, { ok: false, errors: reasons });
    }
    if (ok) {
      goodOutputs.push(o);
      continue;
    }
    failed.push([o, reasons]);
    for (const [nodeId, r] of validated) {
      if (r.ok || r.errors.length === 0) continue;
      nodeErrors[nodeId] ??= { errors: r.errors, dependent_outputs: [], class_type: prompt[nodeId]!.class_type! };
      nodeErrors[nodeId].dependent_outputs.push(o);
    }
  }
  if (goodOutputs.length === 0) {
    const details = failed.flatMap(([, es]) => es.map((e) => `${e.message}: ${e.details}`)).join('\n');
    return {
      ok: false,
      error: err('prompt_outputs_failed_validation', 'Prompt outputs failed validation', details),
      goodOutputs,
      nodeErrors,
    };
  }
  return { ok: true, goodOutputs, nodeErrors };
}

/** str() of a Python list of strings, as the value_not_in_list details print it. */
function pyList(values: unknown[]): string {
  return `[${values.map((v) => (typeof v === 'string' ? `'${v}'` : String(v))).join(', ')}]`;
}
