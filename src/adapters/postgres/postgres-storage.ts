import { join } from 'node:path';
import type { OpenVectorIndex } from '../../ports/vector-index.js';
import type { Storage } from '../../ports/storage.js';
import { ThreadedVectorIndex } from '../vector/threaded-vector-index.js';
import type { HnswParameters } from '../vector/usearch-vector.index.js';
import { PostgresGraphVectorSearch } from './postgres-graph-vector-search.js';
import { FollowedVectorIndex, StoredVectorFollower } from './postgres-vector-follower.js';
import { AdmittedMessages } from './postgres-admitted-messages.js';
import { PostgresConversationArchive } from './postgres-conversation.archive.js';
import { PostgresConversationStore } from './postgres-conversation.store.js';
import { PostgresEmbeddingQueue } from './postgres-embedding.queue.js';
import { PostgresMessageSearch } from './postgres-message-search.js';
import { migratePostgres } from './postgres-migrations.js';
import { createPool, type Pool } from './postgres-pool.js';
import {
  PostgresContextReader,
  PostgresLabelVectorReader,
  PostgresMessageActivityReader,
  PostgresPruningReader,
} from './postgres-readers.js';
import { PostgresStatisticsKeeper } from './postgres-statistics-keeper.js';
import { PostgresSummaryStore } from './postgres-summary.store.js';
import { PostgresApiKeyStore } from './postgres-api-key.store.js';
import { EXACT_SEARCH_MAX_CANDIDATES, PostgresVectorSearch } from './postgres-vector-search.js';
import { DEFAULT_VECTOR_INDEX, PostgresVectorIndex, type VectorIndexOptions } from './postgres-vector-index.js';
import type { Logger } from '../../ports/logger.js';

export interface PostgresStorageOptions {
  url: string;
  poolSize: number;
  /** A filtered vector search with at most this many candidates is ranked exactly (search.exact_max_candidates). */
  exactMaxCandidates?: number;
  /** The vector index (storage.vector_index, storage.ivfflat_probe_share); the rest are for tests. */
  vectorIndex?: Partial<VectorIndexOptions>;
  /** vector_index local: where this replica keeps its graph (server.data_dir), and the graph's parameters (search.index_*). */
  dataDir?: string;
  indexParameters?: HnswParameters;
  log?: Logger;
}

/** Under the replica's data dir, one graph per database (a store id kept in it): another database never loads it. */
const GRAPHS_DIR = 'vectors';
const STORE_ID_KEY = 'store_id';

export interface PostgresStorage extends Storage {
  /** The vector column's index, kept in line by the driver (tests await its maintenance). */
  readonly vectorIndex: PostgresVectorIndex;
}

/**
 * The scale-out driver: everything in one PostgreSQL with pgvector, so any replica serves any request. With
 * storage.vector_index local, each replica also keeps a graph of the vectors in its data dir, which it can rebuild
 * from the database at any time.
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
  const local = index.options.kind === 'local';
  if (local && !options.dataDir) {
    await pool.end().catch(() => {});
    throw new Error('storage.vector_index local keeps a graph in server.data_dir: set one');
  }
  const graphDir = local ? join(options.dataDir!, GRAPHS_DIR, `postgres-${await storeId(pool)}`) : '';
  const statistics = new PostgresStatisticsKeeper(pool, options.log);
  statistics.start();
  // Built behind: a store that grew while no replica ran, or whose configured kind changed, is brought in line.
  void index.maintain();
  // One request asks the same question of its filter for its full text and its vectors: they share the answers.
  const admitted = new AdmittedMessages(pool);
  const exactMaxCandidates = options.exactMaxCandidates ?? EXACT_SEARCH_MAX_CANDIDATES;
  const vectors = new PostgresVectorSearch(pool, index, exactMaxCandidates, admitted);
  const embeddings = new PostgresEmbeddingQueue(pool, index);
  const openLocalIndex: OpenVectorIndex = (model, dimension, onFailure) => {
    const graph = ThreadedVectorIndex.open(graphDir, model, dimension, options.indexParameters, {
      onInsertFailure: (error) => options.log?.error({ err: error },
        'vectors could not go into the graph; they stay stored, and the next start adds them'),
      ...(onFailure ? { onThreadExit: onFailure } : {}),
    });
    const follower = new StoredVectorFollower(pool, embeddings, graph, options.log);
    // Marked before the start's catch-up lists the stored keys, so that nothing stored meanwhile is missed.
    const following = follower.start();
    return { index: new FollowedVectorIndex(graph, follower), loaded: following.then(() => graph.loaded) };
  };
  return {
    driver: 'postgres',
    conversations: new PostgresConversationStore(pool),
    embeddings,
    search: new PostgresMessageSearch(pool, { admitted }),
    context: new PostgresContextReader(pool),
    summaries: new PostgresSummaryStore(pool),
    pruning: new PostgresPruningReader(pool),
    labelVectors: new PostgresLabelVectorReader(pool),
    archive: new PostgresConversationArchive(pool),
    activity: new PostgresMessageActivityReader(pool),
    keys: new PostgresApiKeyStore(pool),
    openLocalIndex: local ? openLocalIndex : null,
    vectorSearch: local ? (localIndex) => new PostgresGraphVectorSearch(pool, localIndex, admitted, exactMaxCandidates) : () => vectors,
    vectorIndex: index,
    close: async () => {
      await statistics.stop();
      await index.close();
      await pool.end();
    },
  };
}

/** This database's id, made by the first replica that asks. */
async function storeId(pool: Pool): Promise<string> {
  await pool.query(`INSERT INTO service_state (key, value) VALUES ($1, gen_random_uuid()::text) ON CONFLICT (key) DO NOTHING`, [STORE_ID_KEY]);
  const { rows } = await pool.query<{ value: string }>('SELECT value FROM service_state WHERE key = $1', [STORE_ID_KEY]);
  return rows[0]!.value;
}
