import { join } from 'node:path';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Config } from '../config/config.schema.js';
import { proxyTls } from '../config/tls-files.js';
import type { ContextService } from '../features/context/context.service.js';
import { presentedKey } from '../http/auth.js';
import { answerClientError } from '../http/client-error.js';
import type { Authenticator } from '../http/app.js';
import '../http/principal.js';
import type { Scope } from '../domain/scope.js';
import { ConversationTargets, type ProxyConversations } from './conversation-target.js';
import { ExchangeRecorder } from './exchange-recorder.js';
import { ExchangeSpool } from './exchange-spool.js';
import { ProxyError, ProxyErrorCode, registerProxyErrorHandling } from './proxy-errors.js';
import { proxyRoutes } from './proxy.routes.js';
import { createUpstreamClient } from './upstream.client.js';

export interface ProxyAppOptions {
  /** Reads proxy.*, server.data_dir, server.body_limit_bytes, server.log_level, limits.max_label_chars. */
  config: Config;
  /** Who a memsvc key or tenant token is: OpenAI clients send it as their api key. */
  authenticator: Authenticator;
  /** In-process services of the controller (ConversationService): the recorder stores through these. */
  conversations: ProxyConversations;
  /** The caller's scope's services: conversation checks and the injected context see only its grants. */
  scoped: (scope: Scope) => { conversations: ProxyConversations; context: Pick<ContextService, 'assemble'> };
  /** A logger instance to share (e.g. the controller's), false for none; default a new one at server.log_level. */
  logger?: FastifyBaseLogger | false;
  /** Pending exchanges' directory; default <data_dir>/proxy-spool; null keeps them in memory only. */
  spoolDir?: string | null;
  fetch?: typeof fetch;
}

export interface ProxyApp {
  app: FastifyInstance;
  recorder: ExchangeRecorder;
}

export const SPOOL_DIR = 'proxy-spool';

/**
 * The OpenAI-compatible chat proxy as a Fastify app, not listening yet. It
 * forwards to proxy.upstream_url, injects assembled memory and stores each
 * exchange through the given services. Exchanges a previous run left in the
 * spool are taken up before this resolves; closing the app stops the retries.
 */
export async function buildProxyApp(options: ProxyAppOptions): Promise<ProxyApp> {
  const { config } = options;
  // Typed as the plain-HTTP instance either way: routes and hooks do not depend on the transport.
  const app = (Fastify as (options: FastifyServerOptions & { https?: object | null }) => FastifyInstance)({
    https: proxyTls(config),
    ...(options.logger === false ? { logger: false }
      : options.logger ? { loggerInstance: options.logger }
      : { logger: { level: config.server.log_level } }),
    bodyLimit: config.server.body_limit_bytes,
    genReqId: () => crypto.randomUUID(),
    // Requests the parser refuses get an answer every client can frame, HEAD included (src/http/client-error.ts).
    clientErrorHandler: answerClientError,
    // Open streams must not hold a shutdown.
    forceCloseConnections: true,
  });

  registerProxyErrorHandling(app);
  app.addHook('onRequest', async (request) => {
    try {
      request.principal = await options.authenticator.authenticate(presentedKey(request));
    } catch (error) {
      throw new ProxyError(401, ProxyErrorCode.INVALID_API_KEY,
        'Invalid or missing API key: send the memsvc API key as the OpenAI api key (Authorization: Bearer <key>)', undefined, { cause: error });
    }
  });

  const targets = new ConversationTargets(options.conversations);
  const spoolDir = options.spoolDir === undefined ? join(config.server.data_dir, SPOOL_DIR) : options.spoolDir;
  const recorder = new ExchangeRecorder({
    conversations: options.conversations,
    targets,
    spool: spoolDir === null ? null : new ExchangeSpool(spoolDir),
    log: app.log,
    options: {
      maxAttempts: config.proxy.store_retry_max_attempts,
      baseDelayMs: config.proxy.store_retry_base_ms,
      maxDelayMs: config.proxy.store_retry_max_ms,
    },
  });
  await recorder.start();
  app.addHook('onClose', async () => { await recorder.close(); });

  await app.register(proxyRoutes, {
    upstream: createUpstreamClient({
      baseUrl: config.proxy.upstream_url,
      timeoutMs: config.proxy.timeout_ms,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    }),
    scoped: options.scoped,
    targets,
    recorder,
    headerRules: {
      defaultBudget: config.proxy.default_budget,
      maxLabelChars: config.limits.max_label_chars,
      normalizeFolder: (folder, field) => options.conversations.normalizeFolder(folder, field),
    },
    passThroughAuth: config.proxy.pass_through_auth,
    upstreamApiKey: config.proxy.upstream_api_key,
  });
  return { app, recorder };
}
