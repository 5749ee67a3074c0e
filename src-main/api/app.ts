// Builds the Fastify application: error handling, OpenAPI, shared schemas, routes, the UI.
import { existsSync } from 'node:fs';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { Errors } from '../../src-shared/errors.ts';
import type { Venue } from '../venue.ts';
import { installErrorHandling } from './error-handler.ts';
import { API_DESCRIPTION } from './openapi-description.ts';
import logoRoutes from './routes/logos.ts';
import symbolRoutes from './routes/symbols.ts';
import timeRoutes from './routes/time.ts';
import { futuresSymbolSchema, generalSymbolSchema } from './schemas.ts';

export interface AppOptions {
  venue: Venue;
  /** Folder of the built renderer (index.html); when missing, `/` explains how to build it. */
  uiDir?: string;
  logger?: boolean;
}

export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: opts.logger ? { level: 'warn' } : false,
    bodyLimit: 64 * 1024,
    ajv: {
      customOptions: {
        // Unknown fields are an error (1003), never silently dropped.
        removeAdditional: false,
        coerceTypes: true,
        useDefaults: true,
        allErrors: false,
      },
    },
    routerOptions: { ignoreTrailingSlash: true },
    // Errors raised before routing (a malformed URL, a bad content type) get the envelope too.
    frameworkErrors(err, _req, reply) {
      const def = err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' ? Errors.UNSUPPORTED_MEDIA_TYPE : Errors.BAD_REQUEST;
      (reply as unknown as FastifyReply).code(def.http).send({ code: def.code, message: `${def.message}: ${err.message}`, data: null });
    },
  });

  installErrorHandling(app);
  app.addSchema(generalSymbolSchema);
  app.addSchema(futuresSymbolSchema);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'perpdesk API', version: '1.0.0', description: API_DESCRIPTION },
      servers: [],
      tags: [
        { name: 'market data', description: 'Public market data: symbols, time, klines, depth, prices' },
      ],
    },
    refResolver: {
      buildLocalReference(json, _baseUri, _fragment, i) {
        return typeof json.$id === 'string' ? json.$id : `def-${i}`;
      },
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list', deepLinking: true } });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  const venue = opts.venue;
  await app.register(symbolRoutes, { venue });
  await app.register(timeRoutes, { venue });
  await app.register(logoRoutes, { venue });

  if (opts.uiDir && existsSync(opts.uiDir)) {
    await app.register(fastifyStatic, { root: opts.uiDir, prefix: '/', wildcard: false, index: ['index.html'] });
  } else {
    app.get('/', { schema: { hide: true } }, async (_req, reply) =>
      reply
        .type('text/html; charset=utf-8')
        .send('<!doctype html><title>perpdesk</title><p>The web UI is not built. Run <code>npm run build</code>, then start the service again. The API is at <a href="/docs">/docs</a>.</p>'),
    );
  }
  return app;
}
