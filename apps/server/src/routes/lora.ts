import { findLoraById, zLoraCatalogueEntry } from '@koma/domain';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { notFound } from '../http/errors.ts';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/** GET /api/lora/models?id= : one entry of the domain's LoRA catalogue. */
export function loraRoutes(app: FastifyInstance): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/lora/models',
    {
      schema: {
        querystring: z.object({ id: z.string().min(1).max(200) }),
        response: { 200: z.object({ model: zLoraCatalogueEntry }) },
      },
    },
    (request) => {
      const model = findLoraById(request.query.id);
      if (!model) throw notFound('LoRA model');
      return { model };
    },
  );
}
