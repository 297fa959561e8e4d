import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';

/** Where the API contract is served: the browsable docs, `/json` and `/yaml` beneath. */
export const API_DOCS_PREFIX = '/api/docs';

/**
 * Validates every request and reply with the route's zod schemas, and builds the OpenAPI document from the
 * same schemas (served at /api/docs). Must run before any route is added: @fastify/swagger collects routes
 * as they are registered. The web client's wire types are generated from this document
 * (apps/web/src/api/schema.d.ts, `npm run api:types`), so server and client cannot drift apart.
 */
export async function installOpenApi(app: FastifyInstance, version: string): Promise<void> {
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Koma API',
        description: 'The HTTP API of the Koma studio. Every route answers errors as `{ error, message }`.',
        version,
      },
      components: {
        securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'koma_session' } },
      },
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(swaggerUi, { routePrefix: API_DOCS_PREFIX });
}
