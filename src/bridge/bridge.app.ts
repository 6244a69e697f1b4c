import { answerClientError } from '../http/client-error.js';
import Fastify, { type FastifyBaseLogger, type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { UpstreamError } from '../domain/upstream-error.js';
import { bridgeErrorOf, BridgeError, BridgeErrorCode } from './bridge.errors.js';
import type { BridgeProviders } from './bridge.providers.js';
import { bridgeRoutes } from './bridge.routes.js';
import { createKeyVerifier, presentedKey } from '../http/auth.js';
import { createBridgeProviders, type BridgeConfig, type WiringOptions } from './bridge.wiring.js';
import ValidatorSelector from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import { DeferredCompilation } from '../http/deferred-compilation.js';
import { RequestLog } from '../http/request-log.js';

export type { BridgeConfig } from './bridge.wiring.js';

export interface BridgeAppDeps extends WiringOptions {
  /** Replace any provider (tests, embedding the bridge in another program). */
  providers?: Partial<BridgeProviders>;
  /** A pino logger instance; default: Fastify's own logger at `logLevel`. */
  logger?: FastifyBaseLogger;
  /** Used when no logger is given; default 'info'. `silent` for tests. */
  logLevel?: string;
  /** Largest accepted request body; default 32 MiB (256 texts of 100,000 chars fit). */
  bodyLimit?: number;
  /** The service's API key, required on every route but /health; undefined leaves the bridge open (tests). */
  apiKey?: string;
}

const DEFAULT_BODY_LIMIT = 32 * 1024 * 1024;

/**
 * The LLM bridge as a Fastify app, not listening yet: embeddings, summaries,
 * entity extraction, importance scores and chat completions, over the
 * providers configured in `bridge.*`. See bridge.routes.ts for the endpoints
 * and GET /openapi.json for their shapes.
 */
export async function buildBridgeApp(config: BridgeConfig, deps: BridgeAppDeps = {}): Promise<FastifyInstance> {
  // Schemas compiled at first use or once listening (src/http/deferred-compilation.ts), not before the bridge listens.
  const compilation = new DeferredCompilation();
  const app = Fastify({
    ...(deps.logger ? { loggerInstance: deps.logger } : { logger: { level: deps.logLevel ?? 'info' } }),
    bodyLimit: deps.bodyLimit ?? DEFAULT_BODY_LIMIT,
    // Requests the parser refuses get an answer every client can frame, HEAD included (src/http/client-error.ts).
    clientErrorHandler: answerClientError,
    // Strict bodies: no turning "abc" into ["abc"] or 1 into "1".
    ajv: { customOptions: { coerceTypes: false, allErrors: false } },
    // Fastify's own compilers, deferred (its typing of the factories predates the route argument it passes).
    schemaController: {
      compilersFactory: {
        buildValidator: compilation.wrapFactory(ValidatorSelector()) as never,
        buildSerializer: compilation.wrapFactory(SerializerSelector()) as never,
      },
    },
    forceCloseConnections: true,
    logController: new RequestLog(),
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.decorate('schemaCompilation', compilation);
  compilation.compileOnceListening(app);

  const providers: BridgeProviders = { ...createBridgeProviders(config, deps), ...deps.providers };

  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'memsvc LLM bridge',
        version: '1.0.0',
        description: 'Embeddings, summaries, entity extraction, importance scores and chat for memsvc. Errors: {"error", "code"}; /v1/* use OpenAI\'s error shape.',
      },
      tags: [
        { name: 'embeddings' },
        { name: 'text', description: 'Summaries, entities, importance' },
        { name: 'openai-compatible' },
        { name: 'system' },
      ],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });

  app.setErrorHandler((error: FastifyError | Error, request, reply) => sendError(error, request, reply));
  app.setNotFoundHandler((request, reply) =>
    sendError(new BridgeError(404, BridgeErrorCode.ROUTE_NOT_FOUND, `Route ${request.method} ${request.url.split('?')[0]} not found`), request, reply),
  );

  if (deps.apiKey !== undefined) {
    const verify = createKeyVerifier(deps.apiKey);
    app.addHook('onRequest', async (request) => {
      if (request.url === '/health' || request.url.startsWith('/health?')) return;
      if (!verify(presentedKey(request))) throw new BridgeError(401, BridgeErrorCode.UNAUTHORIZED, 'Invalid or missing API key');
    });
  }

  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  await app.register(bridgeRoutes, { providers, startedAt: Date.now() });
  return app;
}

interface ErrorReply {
  status: number;
  code: string;
  message: string;
}

/** Maps anything thrown to a status and code; unknown errors become a logged 500. */
function classify(error: FastifyError | Error, request: FastifyRequest): ErrorReply {
  if (error instanceof BridgeError) return { status: error.status, code: error.code, message: error.message };
  if (error instanceof UpstreamError) {
    request.log.warn({ provider: error.provider, kind: error.kind, status: error.status, url: error.url, body: error.body }, 'upstream call failed');
    const mapped = bridgeErrorOf(error);
    return { status: mapped.status, code: mapped.code, message: mapped.message };
  }
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) return { status: 400, code: BridgeErrorCode.VALIDATION_FAILED, message: error.message };
  const status = fastifyError.statusCode;
  if (status !== undefined && status >= 400 && status < 500) {
    const code =
      status === 413 ? BridgeErrorCode.PAYLOAD_TOO_LARGE
      : status === 415 ? BridgeErrorCode.UNSUPPORTED_MEDIA_TYPE
      : error instanceof SyntaxError || fastifyError.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || fastifyError.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ? BridgeErrorCode.INVALID_JSON
      : BridgeErrorCode.VALIDATION_FAILED;
    const message = code === BridgeErrorCode.INVALID_JSON && !/json/i.test(error.message) ? `Invalid JSON body: ${error.message}` : error.message;
    return { status, code, message };
  }
  request.log.error({ err: error }, 'unhandled error');
  return { status: 500, code: BridgeErrorCode.INTERNAL_ERROR, message: `Internal error (request ${request.id})` };
}

function sendError(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const { status, code, message } = classify(error, request);
  if (reply.sent || reply.raw.headersSent) {
    reply.raw.destroy();
    return reply;
  }
  if (error instanceof UpstreamError && error.retryAfterMs !== undefined && status === 503) {
    reply.header('retry-after', String(Math.ceil(error.retryAfterMs / 1000)));
  }
  reply.code(status).header('content-type', 'application/json; charset=utf-8');
  if (request.url.startsWith('/v1/')) {
    return reply.send({ error: { message, type: openAiErrorType(status), code, param: null } });
  }
  return reply.send(status === 500 ? { error: message, code, request_id: String(request.id) } : { error: message, code });
}

function openAiErrorType(status: number): string {
  if (status === 503) return 'service_unavailable';
  if (status === 504) return 'timeout';
  if (status === 502) return 'upstream_error';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}
