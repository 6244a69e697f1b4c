import Fastify, { type FastifyInstance, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from '../config/config.schema.js';
import { serverTls } from '../config/tls-files.js';
import { ErrorCode, ForbiddenError, LimitExceededError, UnauthorizedError, UnavailableError, ValidationError } from '../domain/errors.js';
import type { KeyRateLimit, Principal } from '../domain/principal.js';
import { ADMIN_SCOPE } from '../domain/scope.js';
import { describeJsonBoundsIssue, findJsonBoundsIssue } from '../domain/json-bounds.js';
import { createKeyVerifier, presentedKey } from './auth.js';
import underPressure from '@fastify/under-pressure';
import { isExpensive, registerAdmissionControl } from './admission-control.js';
import { answerFrameworkError, MAX_PATH_SEGMENT_CHARS, registerErrorHandling } from './error-handler.js';
import { answerClientError } from './client-error.js';
import { registerHttpMetrics, type HttpMetrics } from './http-metrics.js';
import { Redis } from 'ioredis';
import { createRateLimiter } from './rate-limit.js';
import { buildRequestValidator } from './request-validation.js';
import { DeferredCompilation } from './deferred-compilation.js';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import { RequestLog } from './request-log.js';
import { registerRouteCatalog } from './route-catalog.js';
import { nameComponents, type SchemaNames } from './openapi-components.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Reachable without an API key. */
    public?: boolean;
  }
  interface FastifyInstance {
    /** The routes' validators and serializers, compiled at first use or once the app listens. */
    schemaCompilation: DeferredCompilation;
  }
}

export interface HttpAppOptions {
  config: Config;
  apiKey: string;
  logger?: FastifyServerOptions['logger'];
  /** Feature schemas published as named components of /openapi.json. */
  schemaNames?: SchemaNames;
}

/**
 * The bare HTTP app: JSON parsing, auth, rate limit, errors, metrics and the
 * OpenAPI document. Features register their routes on it (see controller.app.ts).
 */
/** Says who presents a secret, or throws UnauthorizedError. */
export interface Authenticator {
  authenticate(presented: string | undefined): Promise<Principal>;
  /** The key id a refused secret claims, for the log. */
  claimedId(presented: string | undefined): string | null;
}

export interface HttpApp {
  app: FastifyInstance;
  metrics: HttpMetrics;
  /** Replaces the admin-key-only authenticator once the key store is open. */
  setAuthenticator(authenticator: Authenticator): void;
}

export async function buildHttpApp(options: HttpAppOptions): Promise<HttpApp> {
  const { config } = options;
  const tls = serverTls(config);
  const compilation = new DeferredCompilation();
  // Typed as the plain-HTTP instance either way: routes and hooks do not depend on the transport.
  const app = (Fastify as (options: FastifyServerOptions & { https?: object | null }) => FastifyInstance)({
    https: tls,
    logger: options.logger ?? { level: config.server.log_level },
    bodyLimit: config.server.body_limit_bytes,
    // Fastify's typing of the factory predates the route-definition argument it really passes.
    schemaController: {
      compilersFactory: {
        buildValidator: compilation.wrapFactory(buildRequestValidator) as never,
        buildSerializer: compilation.wrapFactory(SerializerSelector()) as never,
      },
    },
    genReqId: () => crypto.randomUUID(),
    logController: new RequestLog(),
    requestTimeout: config.server.request_timeout_ms,
    connectionTimeout: config.server.connection_timeout_ms,
    // Requests the parser refuses get an answer every client can frame, HEAD included (see client-error.ts).
    clientErrorHandler: answerClientError,
    maxParamLength: MAX_PATH_SEGMENT_CHARS,
    frameworkErrors: answerFrameworkError as never,
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.decorate('schemaCompilation', compilation);
  compilation.compileOnceListening(app);
  registerRouteCatalog(app);
  acceptEmptyJsonBodies(app);
  registerErrorHandling(app);
  const metrics = registerHttpMetrics(app);
  const auth = registerAuthAndRateLimit(app, options);
  await registerOverloadProtection(app, config);

  await app.register(swagger, {
    openapi: {
      info: { title: 'memsvc', version: '1.0.0', description: 'Persistent conversation memory for LLM applications' },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer' },
          apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        },
      },
      security: [{ bearer: [] }, { apiKey: [] }],
    },
    // Runs once, when the document is first asked for: every route is registered by then.
    transformObject: (documentObject) => {
      const document = 'openapiObject' in documentObject ? documentObject.openapiObject : documentObject.swaggerObject;
      return options.schemaNames ? nameComponents(document as never, app.routeCatalog, options.schemaNames) : document;
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger());

  return { app, metrics, setAuthenticator: auth.set };
}

/** Bodiless PUTs sent with a JSON content type must not fail: an empty body parses as "no body". */
function acceptEmptyJsonBodies(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '' || (typeof body === 'string' && body.trim() === '')) return done(null, undefined);
    return parseJson(request, body as string, (error, parsed) => {
      if (error) return done(error, undefined);
      // Checked before any handler sees it: nothing downstream recurses into unbounded depth or meets Infinity.
      const issue = findJsonBoundsIssue(parsed, '');
      if (issue) return done(new ValidationError(describeJsonBoundsIssue(issue)), undefined);
      return done(null, parsed);
    });
  });
}

/** Until the key store is open, only the configured key is accepted. */
function adminKeyOnly(apiKey: string): Authenticator {
  const verify = createKeyVerifier(apiKey);
  return {
    authenticate: async (presented) => {
      if (!verify(presented)) throw new UnauthorizedError();
      return { keyId: 'admin', name: 'admin', admin: true, scope: ADMIN_SCOPE, rateLimit: null };
    },
    claimedId: () => null,
  };
}

function registerAuthAndRateLimit(app: FastifyInstance, options: HttpAppOptions): { set(authenticator: Authenticator): void } {
  let authenticator = adminKeyOnly(options.apiKey);
  const settings = options.config.rate_limit;
  const redis = settings.enabled && settings.store === 'redis' ? connectRateLimitRedis(app, settings.redis_url) : undefined;
  const limiter = (rate: { requestsPerSecond: number; burstSize: number }) =>
    createRateLimiter({ ...rate, ...(redis ? { redis } : {}) });
  const configured = settings.enabled
    ? limiter({ requestsPerSecond: settings.requests_per_second, burstSize: settings.burst_size })
    : null;
  // A key with its own rate limit has its own limiter (one per distinct setting), enabled or not globally.
  const ownLimits = new Map<string, ReturnType<typeof createRateLimiter>>();
  const limitOf = (own: KeyRateLimit | null) => {
    if (!own) return configured;
    const id = `${own.requestsPerSecond}/${own.burst}`;
    let limit = ownLimits.get(id);
    if (!limit) ownLimits.set(id, (limit = limiter({ requestsPerSecond: own.requestsPerSecond, burstSize: own.burst })));
    return limit;
  };

  app.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.config?.public || request.url.startsWith('/docs')) return;
    const presented = presentedKey(request);
    let principal: Principal | null = null;
    let refusal: UnauthorizedError | null = null;
    try {
      principal = await authenticator.authenticate(presented);
    } catch (error) {
      if (!(error instanceof UnauthorizedError)) throw error;
      refusal = error;
      request.claimedKeyId = authenticator.claimedId(presented) ?? undefined;
    }
    const limit = limitOf(principal?.rateLimit ?? null);
    if (limit) {
      // Each key has its own bucket (by id: no secret reaches Redis); failed attempts are limited per address,
      // so guessing is throttled too.
      const decision = await limit(principal ? `key:${principal.keyId}` : `ip:${request.ip}`);
      reply.header('RateLimit-Limit', decision.limit);
      reply.header('RateLimit-Remaining', decision.remaining);
      reply.header('RateLimit-Reset', decision.resetSeconds);
      if (!decision.allowed) {
        reply.header('Retry-After', decision.retryAfterSeconds);
        throw new LimitExceededError(ErrorCode.RATE_LIMITED, `Rate limit exceeded: retry after ${decision.retryAfterSeconds} s`);
      }
    }
    if (!principal) throw refusal ?? new UnauthorizedError();
    request.principal = principal;
    if (request.routeOptions.config?.admin && !principal.admin) throw new ForbiddenError('This needs an admin key');
  });
  return { set: (next) => { authenticator = next; } };
}

/**
 * The Redis client behind the shared rate limit. It never queues commands while
 * disconnected (the limiter then falls back to its in-memory insurance), and it
 * says once in the log when Redis goes away and when it is back.
 */
function connectRateLimitRedis(app: FastifyInstance, url: string): Redis {
  const redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2000, lazyConnect: false });
  let down = false;
  redis.on('error', (error: Error) => {
    if (down) return;
    down = true;
    app.log.warn({ err: error, url: redactUrl(url) },
      'rate limit: Redis unreachable; each replica now limits on its own (in-memory) until it is back');
  });
  redis.on('ready', () => {
    if (down) app.log.info({ url: redactUrl(url) }, 'rate limit: Redis is back; limits are shared across replicas again');
    down = false;
  });
  app.addHook('onClose', async () => { redis.disconnect(); });
  return redis;
}

const redactUrl = (url: string) => url.replace(/\/\/[^@/]*@/, '//***@');

/** How often the event-loop delay is sampled; pressure is judged per sample. */
const LOOP_SAMPLE_MS = 200;
/** Expensive work is shed from this share of the delay limit on. */
const EXPENSIVE_DELAY_SHARE = 0.5;

/**
 * Sheds load before it queues up: a stalled event loop, then per-class admission (see admission-control.ts).
 * A delayed loop sheds only while more than `shed_above_connections` client connections are open: at one
 * request per connection, no more can wait than that, so below it the wait is bounded, and refusing a lone
 * client whose own slow requests (context assembly over a large store) delay the loop would help no one.
 */
async function registerOverloadProtection(app: FastifyInstance, config: Config): Promise<void> {
  const { admission } = config;
  if (!admission.enabled) return;
  if (admission.max_event_loop_delay_ms > 0) {
    const exempt = (request: FastifyRequest) => Boolean(request.routeOptions.config?.public) || request.url.startsWith('/docs');
    let connections = 0;
    app.server.on('connection', (socket) => {
      connections += 1;
      socket.once('close', () => { connections -= 1; });
    });
    const crowded = () => connections > admission.shed_above_connections;
    // Armed only once the server listens (and one clean sample later): start-up's own blocking work
    // (migrations, loading the index) would otherwise read as pressure and shed the first requests.
    let armedAt = Number.POSITIVE_INFINITY;
    app.addHook('onListen', async () => { armedAt = performance.now() + 2 * LOOP_SAMPLE_MS; });
    await app.register(underPressure, {
      maxEventLoopDelay: admission.max_event_loop_delay_ms,
      sampleInterval: LOOP_SAMPLE_MS,
      pressureHandler: (request, reply) => {
        // undefined lets the request through; a rejection goes to the error handler (envelope, 503).
        if (exempt(request) || !crowded() || performance.now() < armedAt) return undefined;
        void reply.header('Retry-After', 1);
        return Promise.reject(new UnavailableError(ErrorCode.OVERLOADED, 'The service is overloaded: retry after 1 s', true));
      },
    });
    // Expensive work (search, context, summaries) costs the most a request: it is shed from half the limit on,
    // so reads and writes keep being served a while longer.
    const expensiveLimit = admission.max_event_loop_delay_ms * EXPENSIVE_DELAY_SHARE;
    app.addHook('onRequest', async (request, reply) => {
      if (exempt(request) || !isExpensive(request) || !crowded() || performance.now() < armedAt
        || app.memoryUsage().eventLoopDelay <= expensiveLimit) return;
      reply.header('Retry-After', 1);
      throw new UnavailableError(ErrorCode.OVERLOADED, 'The service is overloaded: retry after 1 s', true);
    });
  }
  registerAdmissionControl(app, {
    expensive: { concurrency: admission.expensive_concurrency, queueSize: admission.queue_size, queueTimeoutMs: admission.queue_timeout_ms },
    cheap: { concurrency: admission.cheap_concurrency, queueSize: admission.queue_size, queueTimeoutMs: admission.queue_timeout_ms },
  });
}
