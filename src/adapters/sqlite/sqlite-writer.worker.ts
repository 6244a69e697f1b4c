/**
 * The writer thread (see sqlite-writer.ts): its own connection to the database file, and the same stores the
 * request thread reads with, so a write runs exactly the code it ran before, one at a time in arrival order.
 */
import { parentPort } from 'node:worker_threads';
import type { Database } from 'better-sqlite3';
import { openSqliteConnection } from './sqlite-database.js';
import { SqliteConversationArchive } from './sqlite-conversation.archive.js';
import { SqliteConversationStore } from './sqlite-conversation.store.js';
import { SqliteEmbeddingQueue } from './sqlite-embedding.queue.js';
import { SqliteSummaryStore } from './sqlite-summary.store.js';
import { serializeError, WRITE_METHODS, type WriterReply, type WriterRequest, type WriterTarget } from './sqlite-writer.protocol.js';

const port = parentPort!;
let db: Database | null = null;
let stores: Record<WriterTarget, object> | null = null;

async function handle(request: WriterRequest): Promise<unknown> {
  switch (request.op) {
    case 'open': {
      db = openSqliteConnection(request.file, request.options);
      stores = {
        conversations: new SqliteConversationStore(db, request.file),
        embeddings: new SqliteEmbeddingQueue(db),
        summaries: new SqliteSummaryStore(db),
        archive: new SqliteConversationArchive(db),
      };
      return null;
    }
    case 'call': {
      if (!stores) throw new Error('the writer thread has no open database');
      if (!(WRITE_METHODS[request.target] as readonly string[]).includes(request.method)) {
        throw new Error(`${request.target}.${request.method} is not a write`);
      }
      const store = stores[request.target] as Record<string, (...args: unknown[]) => Promise<unknown>>;
      return store[request.method]!(...request.args);
    }
    case 'close': {
      if (db?.open) db.close();
      db = null;
      stores = null;
      return null;
    }
  }
}

// Every store method is synchronous inside (better-sqlite3), so handling the messages as they come keeps
// the writes in arrival order, each transaction whole before the next begins.
port.on('message', (request: WriterRequest) => {
  handle(request).then(
    (value) => port.postMessage({ id: request.id, ok: true, value } satisfies WriterReply),
    (error: unknown) => port.postMessage({ id: request.id, ok: false, error: serializeError(error) } satisfies WriterReply),
  );
});
