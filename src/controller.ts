import { join } from 'node:path';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { Config } from './config/config.schema.js';
import { openSqliteDatabase } from './adapters/sqlite/sqlite-database.js';
import { SqliteConversationStore } from './adapters/sqlite/sqlite-conversation.store.js';
import { buildHttpApp } from './http/app.js';
import { ConversationService } from './features/conversations/conversations.service.js';
import { conversationRoutes } from './features/conversations/conversations.routes.js';
import { systemRoutes } from './features/system/system.routes.js';
import type { HealthCheck } from './features/system/health.js';
import { systemClock, type Clock } from './ports/clock.js';
import type { ConversationStore } from './ports/conversation-store.js';

export interface ControllerOptions {
  config: Config;
  apiKey: string;
  clock?: Clock;
  logger?: FastifyServerOptions['logger'];
}

export interface Controller {
  app: FastifyInstance;
  store: ConversationStore;
  conversations: ConversationService;
  close(): Promise<void>;
}

export const DATABASE_FILE = 'memsvc.db';

/** Composition root of the controller: adapters, services and routes wired together, not yet listening. */
export async function buildController(options: ControllerOptions): Promise<Controller> {
  const { config } = options;
  const clock = options.clock ?? systemClock;
  const databaseFile = join(config.server.data_dir, DATABASE_FILE);
  const db = openSqliteDatabase(databaseFile);
  const store = new SqliteConversationStore(db, databaseFile);

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
  });

  const checks: HealthCheck[] = [{ name: 'database', run: () => store.ping() }];

  const { app, metrics } = await buildHttpApp({ config, apiKey: options.apiKey, logger: options.logger });
  await app.register(conversationRoutes, { prefix: '/api/v1', conversations });
  await app.register(systemRoutes, { store, checks, metrics, startedAt: Date.now() });

  app.addHook('onClose', async () => { await store.close(); });
  return { app, store, conversations, close: () => app.close() };
}
