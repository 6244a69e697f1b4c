import type { Storage } from '../../ports/storage.js';
import { PostgresConversationArchive } from './postgres-conversation.archive.js';
import { PostgresConversationStore } from './postgres-conversation.store.js';
import { PostgresEmbeddingQueue } from './postgres-embedding.queue.js';
import { PostgresMessageSearch } from './postgres-message-search.js';
import { migratePostgres } from './postgres-migrations.js';
import { createPool } from './postgres-pool.js';
import {
  PostgresContextReader,
  PostgresLabelVectorReader,
  PostgresMessageActivityReader,
  PostgresPruningReader,
} from './postgres-readers.js';
import { PostgresSummaryStore } from './postgres-summary.store.js';
import { PostgresVectorSearch } from './postgres-vector-search.js';

export interface PostgresStorageOptions {
  url: string;
  poolSize: number;
  /** A filtered vector search with at most this many candidates is ranked exactly (search.exact_max_candidates). */
  exactMaxCandidates?: number;
}

/**
 * The scale-out driver: everything in one PostgreSQL with pgvector, nothing in
 * the replica's data dir, so any replica serves any request.
 */
export async function openPostgresStorage(options: PostgresStorageOptions): Promise<Storage> {
  const pool = createPool(options.url, options.poolSize);
  try {
    await migratePostgres(pool);
  } catch (error) {
    await pool.end().catch(() => {});
    throw error;
  }
  const vectors = new PostgresVectorSearch(pool, options.exactMaxCandidates);
  return {
    driver: 'postgres',
    conversations: new PostgresConversationStore(pool),
    embeddings: new PostgresEmbeddingQueue(pool),
    search: new PostgresMessageSearch(pool),
    context: new PostgresContextReader(pool),
    summaries: new PostgresSummaryStore(pool),
    pruning: new PostgresPruningReader(pool),
    labelVectors: new PostgresLabelVectorReader(pool),
    archive: new PostgresConversationArchive(pool),
    activity: new PostgresMessageActivityReader(pool),
    openLocalIndex: null,
    vectorSearch: () => vectors,
    close: () => pool.end(),
  };
}
