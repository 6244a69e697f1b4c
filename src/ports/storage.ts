import type { ApiKeyStore } from './api-key-store.js';
import type { ContextReader } from './context-reader.js';
import type { ConversationArchive } from './conversation-archive.js';
import type { ConversationStore } from './conversation-store.js';
import type { EmbeddingQueue } from './embedding-queue.js';
import type { LabelVectorReader } from './label-vectors.js';
import type { MessageActivityReader } from './message-activity-reader.js';
import type { MessageSearchReader } from './message-search.js';
import type { PruningReader } from './pruning-reader.js';
import type { SummaryStore } from './summary-store.js';
import type { OpenVectorIndex, VectorIndex } from './vector-index.js';
import type { VectorSearch } from './vector-search.js';

export type StorageDriver = 'sqlite' | 'postgres';

/**
 * Everything the service keeps, from one storage driver. Only the composition
 * root chooses the driver; features see these ports.
 */
export interface Storage {
  readonly driver: StorageDriver;
  readonly conversations: ConversationStore;
  readonly embeddings: EmbeddingQueue;
  readonly search: MessageSearchReader;
  readonly context: ContextReader;
  readonly summaries: SummaryStore;
  readonly pruning: PruningReader;
  readonly labelVectors: LabelVectorReader;
  readonly archive: ConversationArchive;
  readonly activity: MessageActivityReader;
  /** API keys and the token signing secret (shared by every replica of one database). */
  readonly keys: ApiKeyStore;
  /**
   * How to open the approximate index kept beside the store (SQLite), or null
   * when the database searches vectors itself (pgvector): then a replica keeps
   * no vector state of its own.
   */
  readonly openLocalIndex: OpenVectorIndex | null;
  /** Vector search over the stored vectors; `localIndex` is the index opened with openLocalIndex, once there is one. */
  vectorSearch(localIndex: () => VectorIndex | null): VectorSearch;
  close(): Promise<void>;
}
