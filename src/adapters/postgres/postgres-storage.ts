import type { Storage } from '../../ports/storage.js';
import { AdmittedMessages } from './postgres-admitted-messages.js';
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
import { PostgresStatisticsKeeper } from './postgres-statistics-keeper.js';
import { PostgresSummaryStore } from './postgres-summary.store.js';
import { PostgresApiKeyStore } from './postgres-api-key.store.js';
import { PostgresVectorSearch } from './postgres-vector-search.js';
import { DEFAULT_VECTOR_INDEX, PostgresVectorIndex, type VectorIndexOptions } from './postgres-vector-index.js';
import type { Logger } from '../../ports/logger.js';

export interface PostgresStorageOptions {
  url: string;
  poolSize: number;
  /** A filtered vector search with at most this many candidates is ranked exactly (search.exact_max_candidates). */
  exactMaxCandidates?: number;
  /** The vector index (storage.vector_index, storage.ivfflat_probe_share); the rest are for tests. */
  vectorIndex?: Partial<VectorIndexOptions>;
  log?: Logger;
}

export interface PostgresStorage extends Storage {
  /** The vector column's index, kept in line by the driver (tests await its maintenance). */
  readonly vectorIndex: PostgresVectorIndex;
}

/**
 * The scale-out driver: everything in one PostgreSQL with pgvector, nothing in
 * the replica's data dir, so any replica serves any request.
 */
export async function openPostgresStorage(options: PostgresStorageOptions): Promise<PostgresStorage> {
  const pool = createPool(options.url, options.poolSize);
  try {
    await migratePostgres(pool);
  } catch (error) {
    await pool.end().catch(() => {});
    throw error;
  }
  const index = new PostgresVectorIndex(pool, { ...DEFAULT_VECTOR_INDEX, ...options.vectorIndex }, options.log);
  const statistics = new PostgresStatisticsKeeper(pool, options.log);
  statistics.start();
  // Built behind: a store that grew while no replica ran, or whose configured kind changed, is brought in line.
  void index.maintain();
  // One request asks the same question of its filter for its full text and its vectors: they share the answers.
  const admitted = new AdmittedMessages(pool);
  const vectors = new PostgresVectorSearch(pool, index, options.exactMaxCandidates, admitted);
  return {
    driver: 'postgres',
    conversations: new PostgresConversationStore(pool),
    embeddings: new PostgresEmbeddingQueue(pool, index),
    search: new PostgresMessageSearch(pool, { admitted }),
    context: new PostgresContextReader(pool),
    summaries: new PostgresSummaryStore(pool),
    pruning: new PostgresPruningReader(pool),
    labelVectors: new PostgresLabelVectorReader(pool),
    archive: new PostgresConversationArchive(pool),
    activity: new PostgresMessageActivityReader(pool),
    keys: new PostgresApiKeyStore(pool),
    openLocalIndex: null,
    vectorSearch: () => vectors,
    vectorIndex: index,
    close: async () => {
      await statistics.stop();
      await index.close();
      await pool.end();
    },
  };
}
