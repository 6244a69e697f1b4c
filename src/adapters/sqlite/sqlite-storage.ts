import { join } from 'node:path';
import type { Storage } from '../../ports/storage.js';
import { ThreadedVectorIndex } from '../vector/threaded-vector-index.js';
import type { HnswParameters } from '../vector/usearch-vector.index.js';
import { SqliteContextReader } from './sqlite-context.reader.js';
import { SqliteConversationArchive } from './sqlite-conversation.archive.js';
import { SqliteConversationStore } from './sqlite-conversation.store.js';
import { openSqliteReader, type SqliteOpenOptions } from './sqlite-database.js';
import { ensurePrivateDir, ensurePrivateFile, tightenIfPresent } from '../../config/private-files.js';
import { SqliteEmbeddingQueue } from './sqlite-embedding.queue.js';
import { SqliteLabelVectorReader } from './sqlite-label-vectors.reader.js';
import { SqliteMessageActivityReader } from './sqlite-message-activity.reader.js';
import { SqliteMessageSearch } from './sqlite-message-search.js';
import { SqlitePruningReader } from './sqlite-pruning.reader.js';
import { SqliteSummaryStore } from './sqlite-summary.store.js';
import { SqliteApiKeyStore } from './sqlite-api-key.store.js';
import { EXACT_SEARCH_MAX_CANDIDATES, SqliteVectorSearch, type SqliteVectorSearchOptions } from './sqlite-vector-search.js';
import { SqliteWriter } from './sqlite-writer.js';
import { SqliteCheckpointer } from './sqlite-checkpointer.js';
import { filterReadsOn, SqliteFilterReadThread, warmUpForLargeIndex } from './sqlite-filter-reads.js';

export const DATABASE_FILE = 'memsvc.db';
export const VECTOR_INDEX_DIR = 'vectors';

export interface SqliteIndexOptions {
  /** The HNSW graph's parameters (config search.index_*); the defaults when absent. */
  indexParameters?: HnswParameters;
}

/** The embedded driver: one SQLite file (WAL, FTS5) in the data dir, and a usearch HNSW index beside it. */
export function openSqliteStorage(
  dataDir: string, options: SqliteOpenOptions & SqliteVectorSearchOptions & SqliteIndexOptions = {},
): Storage {
  const file = join(dataDir, DATABASE_FILE);
  // Private whatever the umask: SQLite gives the WAL and shared-memory files the database file's mode.
  ensurePrivateDir(dataDir);
  ensurePrivateFile(file);
  tightenIfPresent([`${file}-wal`, `${file}-shm`]);
  // Writes run on a thread of their own (sqlite-writer.ts); reads on this connection, which refuses writes.
  const db = openSqliteReader(file, options);
  const writer = SqliteWriter.start(file, { synchronous: options.synchronous, maxSizeMb: options.maxSizeMb });
  const checkpointer = SqliteCheckpointer.start(file, { synchronous: options.synchronous }, (error) => options.log?.warn(
    { error }, 'the checkpoint thread could not open the database; the writer checkpoints instead'));
  const filterReads = new SqliteFilterReadThread(file, filterReadsOn(db));
  const exactMaxCandidates = options.exactMaxCandidates ?? EXACT_SEARCH_MAX_CANDIDATES;
  const conversations = new SqliteConversationStore(db, file);
  return {
    driver: 'sqlite',
    conversations: writer.route('conversations', conversations),
    embeddings: writer.route('embeddings', new SqliteEmbeddingQueue(db)),
    search: new SqliteMessageSearch(db),
    context: new SqliteContextReader(db),
    summaries: writer.route('summaries', new SqliteSummaryStore(db)),
    pruning: new SqlitePruningReader(db),
    labelVectors: new SqliteLabelVectorReader(db),
    archive: writer.route('archive', new SqliteConversationArchive(db)),
    keys: writer.route('keys', new SqliteApiKeyStore(db)),
    activity: new SqliteMessageActivityReader(db),
    openLocalIndex: (model, dimension, onFailure) => {
      const index = ThreadedVectorIndex.open(join(dataDir, VECTOR_INDEX_DIR), model, dimension, options.indexParameters, {
        onInsertFailure: (error) => options.log?.error({ err: error },
          'vectors could not go into the graph; they stay stored, and the next start adds them'),
        ...(onFailure ? { onThreadExit: onFailure } : {}),
      });
      void warmUpForLargeIndex(index, filterReads, exactMaxCandidates);
      return { index, loaded: index.loaded };
    },
    vectorSearch: (localIndex) => new SqliteVectorSearch(db, localIndex, { ...options, exactMaxCandidates, reads: filterReads }),
    close: async () => {
      await writer.close();
      await checkpointer.close();
      await filterReads.close();
      await conversations.close();
    },
  };
}
