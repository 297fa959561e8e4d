import type { FastifySchemaCompiler, FastifySerializerCompiler, FastifyTypeProvider } from 'fastify';
import type { z } from 'zod';

/** Lets route handlers see `z.output` of their request schemas and be checked against their reply schemas. */
export interface ZodTypeProvider extends FastifyTypeProvider {
  validator: this['schema'] extends z.ZodType ? z.output<this['schema']> : unknown;
  serializer: this['schema'] extends z.ZodType ? z.input<this['schema']> : unknown;
}

/** Validates body, querystring and params with the route's zod schema. */
export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema }) =>
  (data: unknown) => {
    const result = schema.safeParse(data);
    if (result.success) return { value: result.data };
    // Keep the ZodError as the cause so the error handler can name the field.
    return { error: Object.assign(new Error(result.error.message), { cause: result.error }) };
  };

/** Checks every reply against its zod schema before it leaves, so the contract cannot drift silently. */
export const zodSerializerCompiler: FastifySerializerCompiler<z.ZodType> =
  ({ schema }) =>
  (data: unknown) =>
    JSON.stringify(schema.parse(data));
