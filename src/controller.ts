import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { Counter } from 'prom-client';
import type { Config } from './config/config.schema.js';
import { HttpBridgeClient } from './adapters/bridge-client/http-bridge.client.js';
import { openStorage } from './storage.js';
import { buildHttpApp } from './http/app.js';
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
import { contextRoutes } from './features/context/context.routes.js';
import { VectorIndexHolder } from './features/search/vector-index.holder.js';
import { buildMemoryTools } from './mcp/memory-tools.js';
import { ToolInvoker } from './mcp/tool-invoker.js';
import { toolRoutes } from './mcp/tools.routes.js';
import { mcpHttpRoutes } from './mcp/mcp-http.routes.js';
import { systemRoutes } from './features/system/system.routes.js';
import { uiRoutes } from './features/ui/ui.routes.js';
import type { HealthCheck } from './features/system/health.js';
import { EmbeddingWorker } from './worker/embedding.worker.js';
import { systemClock, type Clock } from './ports/clock.js';
import type { ConversationStore } from './ports/conversation-store.js';
import type { Storage } from './ports/storage.js';
import type { EmbeddingProvider } from './ports/embedding-provider.js';

export interface ControllerOptions {
  config: Config;
  apiKey: string;
  clock?: Clock;
  logger?: FastifyServerOptions['logger'];
  /** Defaults to the HTTP bridge at config.bridge.url. */
  embeddingProvider?: EmbeddingProvider;
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
  /** The vector index and its catch-up after a start (status for /health). */
  holder: VectorIndexHolder;
  close(): Promise<void>;
}

export { DATABASE_FILE } from './adapters/sqlite/sqlite-storage.js';
const MAX_EMBEDDING_ATTEMPTS = 5;
const INDEX_SAVE_INTERVAL_MS = 30_000;

/** Composition root of the controller: adapters, services and routes wired together, not yet listening. */
export async function buildController(options: ControllerOptions): Promise<Controller> {
  const { config } = options;
  const clock = options.clock ?? systemClock;
  const storage = options.storage ?? await openStorage(config);
  const { conversations: store, embeddings: queue, search: reader } = storage;
  const provider = options.embeddingProvider
    ?? new HttpBridgeClient({ url: config.bridge.url, timeoutMs: config.bridge.timeout_ms, apiKey: options.apiKey });

  const { app, metrics } = await buildHttpApp({ config, apiKey: options.apiKey, logger: options.logger });
  const log = app.log;

  const holder = new VectorIndexHolder(queue, storage.openLocalIndex, log);
  await holder.start();
  const vectors = storage.vectorSearch(() => holder.current().index);
  const embeddedTotal = new Counter({
    name: 'memsvc_embedding_jobs_completed_total',
    help: 'Messages whose embedding this replica computed and stored',
    registers: [metrics.registry],
  });
  const worker = new EmbeddingWorker(queue, provider, holder, {
    batchSize: config.embedding_worker.batch_size,
    pollIntervalMs: config.embedding_worker.poll_interval_ms,
    maxBackoffMs: config.embedding_worker.max_backoff_ms,
    maxAttempts: MAX_EMBEDDING_ATTEMPTS,
    saveIntervalMs: INDEX_SAVE_INTERVAL_MS,
    claimLeaseMs: config.embedding_worker.claim_lease_ms,
    onEmbedded: (count) => embeddedTotal.inc(count),
  }, log);

  // Deleted messages also drop out of search results by themselves (hits are read from the store).
  const removeFromIndex = (keys: readonly number[]) => {
    holder.current().index?.remove(keys).catch((error: unknown) => log.warn({ err: error }, 'removing vectors from the index failed'));
  };

  const folderLimits = { maxChars: config.limits.max_folder_chars, maxDepth: config.limits.max_folder_depth };
  const conversations = new ConversationService({
    store,
    clock,
    sessionGapMs: config.sessions.idle_gap_minutes * 60_000,
    limits: {
      maxMessageChars: config.limits.max_message_chars,
      maxMessagesPerConversation: config.limits.max_messages_per_conversation,
      maxPageSize: config.limits.max_page_size,
      maxLabelChars: config.limits.max_label_chars,
      maxFolderChars: config.limits.max_folder_chars,
      maxFolderDepth: config.limits.max_folder_depth,
      maxMetadataBytes: config.limits.max_metadata_bytes,
    },
    onMessagesStored: () => worker.wake(),
    onConversationDeleted: (keys) => removeFromIndex(keys),
  });
  const search = new SearchService({
    provider, holder, vectors, reader, folderLimits, log,
    maxResults: config.limits.max_query_results,
    defaultMode: config.search.default_mode,
    clock,
    scopedStatistics: config.search.scoped_statistics,
    refinement: {
      authorWeight: config.search.author_weight,
      sessionWeight: config.search.session_weight,
      timeWeight: config.search.time_weight,
    },
  });
  const context = new ContextService({
    rankings: search, reader: storage.context, messages: reader, clock, folderLimits, log,
    tuning: { ...(config.search.context_refinement ? DEFAULT_TUNING : UNREFINED_TUNING), timeWeight: config.search.time_weight },
  });
  const embeddings = new EmbeddingsService({
    queue, holder, clock, log, wakeWorker: () => worker.wake(), workerStatus: () => ({ ...worker.status() }),
  });

  // Memory orchestration: summaries, pruning, labels, export/import.
  const language = new HttpBridgeLanguageClient({ url: config.bridge.url, timeoutMs: config.bridge.timeout_ms, apiKey: options.apiKey });
  const summaries = new SummariesService({ conversations: store, summaries: storage.summaries, language, clock });
  const pruning = new PruningService({ conversations: store, reader: storage.pruning, clock });
  const labels = new LabelsService({
    conversations: store, vectors: storage.labelVectors, language, embedder: provider, log,
    useLlm: config.bridge.chat.provider !== 'none',
  });
  const exporter = new ExportService({
    store, archive: storage.archive, clock,
    limits: {
      maxMessageChars: config.limits.max_message_chars,
      maxMessagesPerConversation: config.limits.max_messages_per_conversation,
      maxLabelChars: config.limits.max_label_chars,
      maxMetadataBytes: config.limits.max_metadata_bytes,
      folder: folderLimits,
      sessionGapMs: config.sessions.idle_gap_minutes * 60_000,
    },
    onMessagesStored: () => worker.wake(),
    onMessagesRemoved: (keys) => removeFromIndex(keys),
  });

  const checks: HealthCheck[] = [
    { name: 'database', run: () => store.ping(), details: async () => ({ driver: storage.driver }) },
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

  await app.register(conversationRoutes, { prefix: '/api/v1', conversations });
  await app.register(searchRoutes, { prefix: '/api/v1', search, pendingEmbeddings: () => embeddings.pending() });
  await app.register(contextRoutes, { prefix: '/api/v1', context });
  await app.register(embeddingRoutes, { prefix: '/api/v1', embeddings });
  await app.register(summaryRoutes, { prefix: '/api/v1', summaries });
  await app.register(pruningRoutes, { prefix: '/api/v1', pruning });
  await app.register(labelRoutes, { prefix: '/api/v1', labels });
  await app.register(exportRoutes, { prefix: '/api/v1', exporter });
  const invoker = new ToolInvoker(buildMemoryTools({ conversations, search, pruning, context, summaries }), log);
  await app.register(toolRoutes, { invoker });
  await app.register(mcpHttpRoutes, {
    catalog: {
      tools: invoker.tools,
      call: async (name, params) => (await invoker.invoke(name, params)).envelope,
    },
  });
  await app.register(systemRoutes, {
    store, checks, metrics, startedAt: Date.now(),
    extraStats: async () => ({ embeddings: await embeddings.status() }),
  });
  // Last: the web UI's catch-all must not shadow any API route.
  await app.register(uiRoutes, { activity: storage.activity, clock });

  if (config.embedding_worker.enabled) worker.start();
  app.addHook('onClose', async () => {
    await worker.stop();
    await holder.close();
    await storage.close();
  });
  return { app, storage, store, conversations, search, context, embeddings, worker, holder, close: () => app.close() };
}
