import { join } from 'node:path';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { Counter, type Registry } from 'prom-client';
import type { Config } from './config/config.schema.js';
import { HttpBridgeClient } from './adapters/bridge-client/http-bridge.client.js';
import { openStorage } from './storage.js';
import { buildHttpApp } from './http/app.js';
import { FEATURE_SCHEMA_NAMES } from './features/feature-schemas.js';
import type { HttpMetrics } from './http/http-metrics.js';
import { AccessRecorder } from './features/conversations/access-recorder.js';
import { ConversationService } from './features/conversations/conversations.service.js';
import { conversationRoutes } from './features/conversations/conversations.routes.js';
import { EmbeddingsService } from './features/embeddings/embeddings.service.js';
import { embeddingRoutes } from './features/embeddings/embeddings.routes.js';
import { SearchService } from './features/search/search.service.js';
import { searchRoutes } from './features/search/search.routes.js';
import { HttpBridgeLanguageClient } from './adapters/bridge-client/http-bridge-language.client.js';
import { SummariesService } from './features/summaries/summaries.service.js';
import { summaryRoutes } from './features/summaries/summaries.routes.js';
import { PruningService } from './features/pruning/pruning.service.js';
import { pruningRoutes } from './features/pruning/pruning.routes.js';
import { LabelsService } from './features/labels/labels.service.js';
import { labelRoutes } from './features/labels/labels.routes.js';
import { ExportService } from './features/export/export.service.js';
import { exportRoutes } from './features/export/export.routes.js';
import { ContextService } from './features/context/context.service.js';
import { DEFAULT_TUNING, UNREFINED_TUNING } from './features/context/context-ranking.js';
import { PeriodParsingThread } from './adapters/date-parsing/period-parsing-thread.js';
import { contextRoutes } from './features/context/context.routes.js';
import { VectorIndexHolder } from './vector-index/vector-index.holder.js';
import { buildMemoryTools } from './mcp/memory-tools.js';
import { ToolInvoker } from './mcp/tool-invoker.js';
import { toolRoutes } from './mcp/tools.routes.js';
import { mcpHttpRoutes } from './mcp/mcp-http.routes.js';
import { systemRoutes } from './features/system/system.routes.js';
import { uiRoutes } from './features/ui/ui.routes.js';
import type { HealthCheck } from './features/system/health.js';
import { detailedHealth } from './features/system/detailed-health.js';
import { spoolDepth } from './proxy/exchange-spool.js';
import { SPOOL_DIR } from './proxy/proxy.app.js';
import { EmbeddingWorker } from './worker/embedding.worker.js';
import { systemClock, type Clock } from './ports/clock.js';
import type { ConversationStore } from './ports/conversation-store.js';
import type { Storage } from './ports/storage.js';
import type { EmbeddingProvider } from './ports/embedding-provider.js';
import type { QueryEmbedder } from './ports/query-embedder.js';
import { bridgeQueryEmbedder, inProcessQueryEmbedder } from './adapters/local-embedding/query-embedder.js';
import { BUILTIN_EMBEDDING_MODEL, modelCacheDir } from './bridge/builtin/embedding/builtin-model.js';
import type { Logger } from './ports/logger.js';
import { WritesInFlight } from './domain/writes-in-flight.js';
import { ADMIN_SCOPE, defaultFolder, type Scope } from './domain/scope.js';
import { principalOf, type ForRequest } from './http/principal.js';
import { KeysService } from './features/keys/keys.service.js';
import { keyRoutes } from './features/keys/keys.routes.js';
import { scopeStorage } from './tenancy/scoped-storage.js';
import { ScopedServices } from './tenancy/scoped-services.js';
import type { ScopedTools } from './mcp/tool-invoker.js';
import type { MessageActivityReader } from './ports/message-activity-reader.js';

export interface ControllerOptions {
  config: Config;
  apiKey: string;
  clock?: Clock;
  logger?: FastifyServerOptions['logger'];
  /** Defaults to the HTTP bridge at config.bridge.url. */
  embeddingProvider?: EmbeddingProvider;
  /** Where the builtin embedder's model cache is (the bridge's); default <data_dir>/cache. */
  modelCacheDir?: string;
  /** Defaults to the configured driver (storage.driver); the controller closes it. */
  storage?: Storage;
}

export interface Controller {
  app: FastifyInstance;
  storage: Storage;
  store: ConversationStore;
  conversations: ConversationService;
  search: SearchService;
  context: ContextService;
  embeddings: EmbeddingsService;
  worker: EmbeddingWorker;
  /** Writes of messages waiting on the store (the embedding worker yields to a burst of them). */
  writes: WritesInFlight;
  /** The vector index and its catch-up after a start (status for /health). */
  holder: VectorIndexHolder;
  /** API keys and tenant tokens: who a secret is. */
  keys: KeysService;
  /** The services as each scope sees them (the proxy serves its callers through these). */
  features: ScopedServices<Features>;
  close(): Promise<void>;
}

/** The feature services of one scope. */
export interface Features {
  conversations: ConversationService;
  search: SearchService;
  context: ContextService;
  embeddings: EmbeddingsService;
  summaries: SummariesService;
  pruning: PruningService;
  labels: LabelsService;
  exporter: ExportService;
  /** The store as the scope sees it (/stats). */
  store: ConversationStore;
  activity: MessageActivityReader;
  tools: ScopedTools;
}

export { DATABASE_FILE } from './adapters/sqlite/sqlite-storage.js';
const MAX_EMBEDDING_ATTEMPTS = 5;
const INDEX_SAVE_INTERVAL_MS = 30_000;

/** Composition root of the controller: adapters, services and routes wired together, not yet listening. */
export async function buildController(options: ControllerOptions): Promise<Controller> {
  const { config } = options;
  const clock = options.clock ?? systemClock;
  // The app (and so the logger) first: opening the store may run a long migration, which it reports.
  const { app, metrics, setAuthenticator } = await buildHttpApp({
    config, apiKey: options.apiKey, logger: options.logger, schemaNames: FEATURE_SCHEMA_NAMES,
  });
  const log = app.log;
  let storage: Storage;
  try {
    storage = options.storage ?? await openStorage(config, log);
  } catch (error) {
    await app.close();
    throw error;
  }
  const { conversations: store, embeddings: queue, search: reader } = storage;
  const bridge = { url: config.bridge.url, timeoutMs: config.bridge.timeout_ms, apiKey: options.apiKey };
  const provider = options.embeddingProvider ?? new HttpBridgeClient(bridge);
  const language = new HttpBridgeLanguageClient(bridge);

  // The vector index and the worker that fills it.
  const holder = new VectorIndexHolder(queue, storage.openLocalIndex, log);
  await holder.start();
  // Writes of messages waiting on the store: the embedding worker yields to a burst of them.
  const writes = new WritesInFlight();
  const worker = buildEmbeddingWorker(config, storage, provider, holder, metrics.registry, log, writes);
  const removeFromIndex = (keys: readonly number[]) => {
    // Deleted messages also drop out of search results by themselves (hits are read from the store).
    holder.current().index?.remove(keys).catch((error: unknown) => log.warn({ err: error }, 'removing vectors from the index failed'));
  };
  const folderLimits = { maxChars: config.limits.max_folder_chars, maxDepth: config.limits.max_folder_depth };

  // The features, once per scope: the admin's over the whole store, a tenant's over the store narrowed to its
  // grants (tenancy/scoped-storage.ts). Routes reach them only through the request's principal.
  // Every client read that counts as an access (a conversation, its messages, a summary) records it here.
  const accesses = new AccessRecorder((id, at) => store.touch(id, at), log);
  // Started now, it warms (chrono-node) on its own thread while the rest starts; not at all without the time bonus.
  const periods = config.search.time_weight > 0 ? PeriodParsingThread.start(log) : PeriodParsingThread.onDemand(log);
  const queries = queryEmbedder(config, provider, options.modelCacheDir ?? modelCacheDir(config.server.data_dir), log);
  const buildFeatures = (scope: Scope): Features => {
    const seen = scopeStorage(storage, scope);
    const conversations = new ConversationService({
      store: seen.conversations, clock, sessionGapMs: sessionGapMs(config), limits: conversationLimits(config),
      onMessagesStored: () => worker.wake(),
      onConversationDeleted: removeFromIndex, accesses, writes, defaultFolder: defaultFolder(scope),
    });
    const search = new SearchService({
      queries, holder, vectors: seen.vectorSearch(() => holder.current().index), reader: seen.search, folderLimits, log,
      maxResults: config.limits.max_query_results,
      defaultMode: config.search.default_mode,
      clock,
      periods,
      scopedStatistics: config.search.scoped_statistics,
      refinement: {
        authorWeight: config.search.author_weight,
        sessionWeight: config.search.session_weight,
        timeWeight: config.search.time_weight,
      },
    });
    const context = new ContextService({
      rankings: search, reader: seen.context, messages: seen.search, clock, folderLimits, log, periods,
      tuning: config.search.context_refinement
        ? { ...DEFAULT_TUNING, timeWeight: config.search.time_weight,
          authorPrior: config.search.context_author_prior, sessionWeight: config.search.context_session_weight }
        : { ...UNREFINED_TUNING, timeWeight: config.search.time_weight },
    });
    const embeddings = new EmbeddingsService({
      queue: seen.embeddings, holder, clock, log, wakeWorker: () => worker.wake(), workerStatus: () => ({ ...worker.status() }),
      tenant: !scope.admin,
    });
    const summaries = new SummariesService({
      conversations: seen.conversations, summaries: seen.summaries, language, clock, recordAccess: (id, at) => accesses.record(id, at),
    });
    const pruning = new PruningService({ conversations: seen.conversations, reader: seen.pruning, clock, accessesRecorded: () => accesses.settled() });
    const labels = new LabelsService({
      conversations: seen.conversations, vectors: seen.labelVectors, language, embedder: provider, log,
      useLlm: config.bridge.chat.provider !== 'none',
    });
    const exporter = new ExportService({
      store: seen.conversations, archive: seen.archive, clock,
      limits: { ...conversationLimits(config), folder: folderLimits, sessionGapMs: sessionGapMs(config) },
      onMessagesStored: () => worker.wake(),
      onMessagesRemoved: removeFromIndex,
      accessesRecorded: () => accesses.settled(),
      writes,
    });
    const tools = buildMemoryTools({ conversations, search, pruning, context, summaries });
    return {
      conversations, search, context, embeddings, summaries, pruning, labels, exporter,
      store: seen.conversations, activity: seen.activity, tools: new Map(tools.map((tool) => [tool.name, tool])),
    };
  };
  const features = new ScopedServices(buildFeatures, buildFeatures(ADMIN_SCOPE));
  const admin = features.admin;
  const { conversations, search, context, embeddings } = admin;
  /** A feature's service as the request's scope sees it. */
  const scoped = <K extends keyof Features>(name: K): ForRequest<Features[K]> =>
    (request) => features.for(principalOf(request).scope)[name];
  const keys = new KeysService({ store: storage.keys, adminKey: options.apiKey, clock, log, folderLimits });
  setAuthenticator(keys);

  // Their routes, the MCP tools over them, and the system routes.
  await app.register(conversationRoutes, { prefix: '/api/v1', conversations: scoped('conversations') });
  await app.register(searchRoutes, { prefix: '/api/v1', search: scoped('search'),
    pendingEmbeddings: (request) => () => scoped('embeddings')(request).pending() });
  await app.register(contextRoutes, { prefix: '/api/v1', context: scoped('context') });
  await app.register(embeddingRoutes, { prefix: '/api/v1', embeddings: scoped('embeddings') });
  await app.register(summaryRoutes, { prefix: '/api/v1', summaries: scoped('summaries') });
  await app.register(pruningRoutes, { prefix: '/api/v1', pruning: scoped('pruning') });
  await app.register(labelRoutes, { prefix: '/api/v1', labels: scoped('labels') });
  await app.register(exportRoutes, { prefix: '/api/v1', exporter: scoped('exporter') });
  await app.register(keyRoutes, { prefix: '/api/v1', keys });
  await registerMcp(app, new ToolInvoker([...admin.tools.values()], log, app.schemaCompilation), scoped('tools'));
  await registerSystem(app, { config, storage, provider, holder, embeddings, worker, metrics, clock,
    scopedStore: scoped('store'), scopedEmbeddings: scoped('embeddings') });
  // Last: the web UI's catch-all must not shadow any API route.
  await app.register(uiRoutes, { activity: scoped('activity'), clock });

  if (config.embedding_worker.enabled) worker.start();
  app.addHook('onClose', async () => {
    await worker.stop();
    await holder.close();
    await accesses.settled();
    await storage.close();
    await periods.close();
  });
  return { app, storage, store, conversations, search, context, embeddings, worker, writes, holder, keys, features,
    close: () => app.close() };
}

/** Questions embedded in process when the bridge runs the builtin model (search.query_embedding). */
function queryEmbedder(config: Config, provider: EmbeddingProvider, cacheDir: string, log: Logger): QueryEmbedder {
  if (config.search.query_embedding === 'bridge' || config.bridge.embeddings.provider !== 'builtin') return bridgeQueryEmbedder(provider);
  return inProcessQueryEmbedder({
    remote: provider,
    localModel: BUILTIN_EMBEDDING_MODEL,
    loadLocal: async () => {
      const { createBuiltinEmbedder } = await import('./bridge/builtin/embedding/builtin-embedder.js');
      return createBuiltinEmbedder({ cacheDir, cacheOnly: true });
    },
    log,
  });
}

const sessionGapMs = (config: Config) => config.sessions.idle_gap_minutes * 60_000;

/** The limits every write of messages obeys, whether created, appended or imported. */
function conversationLimits(config: Config) {
  return {
    maxMessageChars: config.limits.max_message_chars,
    maxMessagesPerConversation: config.limits.max_messages_per_conversation,
    maxPageSize: config.limits.max_page_size,
    maxLabelChars: config.limits.max_label_chars,
    maxFolderChars: config.limits.max_folder_chars,
    maxFolderDepth: config.limits.max_folder_depth,
    maxMetadataBytes: config.limits.max_metadata_bytes,
  };
}

function buildEmbeddingWorker(config: Config, storage: Storage, provider: EmbeddingProvider, holder: VectorIndexHolder,
  registry: Registry, log: Logger, writes: WritesInFlight): EmbeddingWorker {
  const embeddedTotal = new Counter({
    name: 'memsvc_embedding_jobs_completed_total',
    help: 'Messages whose embedding this replica computed and stored',
    registers: [registry],
  });
  return new EmbeddingWorker(storage.embeddings, provider, holder, {
    batchSize: config.embedding_worker.batch_size,
    pollIntervalMs: config.embedding_worker.poll_interval_ms,
    maxBackoffMs: config.embedding_worker.max_backoff_ms,
    bridgeProbeMaxMs: config.embedding_worker.bridge_probe_max_ms,
    maxAttempts: MAX_EMBEDDING_ATTEMPTS,
    saveIntervalMs: INDEX_SAVE_INTERVAL_MS,
    claimLeaseMs: config.embedding_worker.claim_lease_ms,
    onEmbedded: (count) => embeddedTotal.inc(count),
    maxYieldMs: config.embedding_worker.max_yield_ms,
    writesWaiting: () => writes.waiting(),
    overlapCompletion: storage.openLocalIndex === null,
  }, log);
}

/** The tools in both forms: REST (/mcp/tools) and MCP streamable HTTP (/mcp), each run as the caller's scope has them. */
async function registerMcp(app: FastifyInstance, invoker: ToolInvoker, tools: ForRequest<ScopedTools>): Promise<void> {
  await app.register(toolRoutes, { invoker, tools });
  await app.register(mcpHttpRoutes, {
    catalog: (request) => ({
      tools: invoker.tools,
      call: async (name, params) => (await invoker.invoke(name, params, tools(request))).envelope,
    }),
  });
}

interface SystemParts {
  config: Config;
  storage: Storage;
  provider: EmbeddingProvider;
  holder: VectorIndexHolder;
  embeddings: EmbeddingsService;
  worker: EmbeddingWorker;
  metrics: HttpMetrics;
  clock: Clock;
  scopedStore: ForRequest<ConversationStore>;
  scopedEmbeddings: ForRequest<EmbeddingsService>;
}

/** /health (public, cached), /health/detailed (behind the key), /metrics and /api/v1/stats. */
async function registerSystem(app: FastifyInstance, parts: SystemParts): Promise<void> {
  const { config, storage, provider, holder, embeddings, worker, metrics, clock, scopedStore, scopedEmbeddings } = parts;
  const checks = healthChecks(config, storage, provider, holder, embeddings);
  const startedAt = Date.now();
  const spoolDir = join(config.server.data_dir, SPOOL_DIR);
  await app.register(systemRoutes, {
    store: storage.conversations, scopedStore, checks, metrics, startedAt, clock,
    healthCacheMs: config.server.health_cache_ms,
    metricsRequireKey: config.metrics.require_key,
    detailedHealth: () => detailedHealth({
      checks, startedAt, clock,
      database: { driver: storage.driver, ping: () => storage.conversations.ping() },
      bridge: { url: config.bridge.url, health: () => provider.health() },
      queue: storage.embeddings,
      worker: () => worker.status(),
      index: () => (storage.openLocalIndex ? { ...holder.catchUpStatus(), partial: holder.partial() } : null),
      dataDir: config.server.data_dir,
      spool: config.proxy.enabled ? () => spoolDepth(spoolDir) : null,
    }),
    extraStats: (request) => async () => ({ embeddings: await scopedEmbeddings(request).status() }),
  });
}

/** What /health checks: the database, the vector store (and its model), the bridge. */
function healthChecks(config: Config, storage: Storage, provider: EmbeddingProvider, holder: VectorIndexHolder,
  embeddings: EmbeddingsService): HealthCheck[] {
  return [
    { name: 'database', run: () => storage.conversations.ping(), details: async () => ({ driver: storage.driver }) },
    {
      name: 'vector_store',
      run: async () => {
        const { mismatch } = holder.current();
        if (mismatch) {
          throw new Error(`embedding model changed from ${mismatch.recorded.model} to ${mismatch.current.model}; ` +
            'run POST /api/v1/rebuild-embeddings');
        }
      },
      details: async () => {
        const status = await embeddings.status();
        return {
          model: status.model, indexed: status.indexed, pending: status.pending, failed: status.failed,
          index_catch_up: holder.catchUpStatus().state,
        };
      },
    },
    { name: 'llm_bridge', run: async () => { await provider.health(); }, details: async () => ({ url: config.bridge.url }) },
  ];
}
