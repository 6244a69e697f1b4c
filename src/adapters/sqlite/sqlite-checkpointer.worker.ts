/**
 * The checkpoint thread (see sqlite-checkpointer.ts): its own connection, which copies the WAL's pages back into
 * the database file every interval, as a PASSIVE checkpoint (it waits for no reader and no writer).
 */
import { parentPort } from 'node:worker_threads';
import type { Database } from 'better-sqlite3';
import { openSqliteConnection } from './sqlite-database.js';
import type { CheckpointerReply, CheckpointerRequest } from './sqlite-checkpointer.js';

const port = parentPort!;
let db: Database | null = null;
let timer: NodeJS.Timeout | null = null;

function checkpoint(): void {
  try {
    db?.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // Busy past the busy wait: the next interval tries again; the writer's backstop bounds the WAL meanwhile.
  }
}

function handle(request: CheckpointerRequest): void {
  if (request.op === 'open') {
    db = openSqliteConnection(request.file, request.options);
    timer = setInterval(checkpoint, request.intervalMs);
    return;
  }
  if (timer) clearInterval(timer);
  if (db?.open) db.close();
  db = null;
}

port.on('message', (request: CheckpointerRequest) => {
  try {
    handle(request);
    port.postMessage({ id: request.id, ok: true } satisfies CheckpointerReply);
  } catch (error) {
    port.postMessage({ id: request.id, ok: false, error: (error as Error).message } satisfies CheckpointerReply);
  }
});
