import { join } from 'node:path';
import type { Storage } from '../../ports/storage.js';
import { UsearchVectorIndex } from '../vector/usearch-vector.index.js';
import { SqliteContextReader } from './sqlite-context.reader.js';
import { SqliteConversationArchive } from './sqlite-conversation.archive.js';
import { SqliteConversationStore } from './sqlite-conversation.store.js';
import { openSqliteDatabase } from './sqlite-database.js';
import { SqliteEmbeddingQueue } from './sqlite-embedding.queue.js';
import { SqliteLabelVectorReader } from './sqlite-label-vectors.reader.js';
import { SqliteMessageActivityReader } from './sqlite-message-activity.reader.js';
import { SqliteMessageSearch } from './sqlite-message-search.js';
import { SqlitePruningReader } from './sqlite-pruning.reader.js';
import { SqliteSummaryStore } from './sqlite-summary.store.js';
import { SqliteVectorSearch } from './sqlite-vector-search.js';

export const DATABASE_FILE = 'memsvc.db';
export const VECTOR_INDEX_DIR = 'vectors';

/** The embedded driver: one SQLite file (WAL, FTS5) in the data dir, and a usearch HNSW index beside it. */
export function openSqliteStorage(dataDir: string): Storage {
  const file = join(dataDir, DATABASE_FILE);
  const db = openSqliteDatabase(file);
  const conversations = new SqliteConversationStore(db, file);
  return {
    driver: 'sqlite',
    conversations,
    embeddings: new SqliteEmbeddingQueue(db),
    search: new SqliteMessageSearch(db),
    context: new SqliteContextReader(db),
    summaries: new SqliteSummaryStore(db),
    pruning: new SqlitePruningReader(db),
    labelVectors: new SqliteLabelVectorReader(db),
    archive: new SqliteConversationArchive(db),
    activity: new SqliteMessageActivityReader(db),
    openLocalIndex: (model, dimension) => UsearchVectorIndex.open(join(dataDir, VECTOR_INDEX_DIR), model, dimension),
    vectorSearch: (localIndex) => new SqliteVectorSearch(db, localIndex),
    close: () => conversations.close(),
  };
}
