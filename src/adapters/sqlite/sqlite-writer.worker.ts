/**
 * The writer thread (see sqlite-writer.ts): its own connection to the database file, and the same stores the
 * request thread reads with, so a write runs exactly the code it ran before, in arrival order.
 *
 * Writes that arrive while others are being stored are stored together in one transaction (group commit):
 * one commit, and one new full-text segment, for every create a burst of clients sent, rather than one each.
 * If any of them fails, the whole group is rolled back and each runs again alone, so a failure is its own
 * and never another's.
 */
import { parentPort } from 'node:worker_threads';
import type { Database } from 'better-sqlite3';
import { openSqliteConnection } from './sqlite-database.js';
import { SqliteConversationArchive } from './sqlite-conversation.archive.js';
import { SqliteApiKeyStore } from './sqlite-api-key.store.js';
import { SqliteConversationStore } from './sqlite-conversation.store.js';
import { SqliteEmbeddingQueue } from './sqlite-embedding.queue.js';
import { SqliteSummaryStore } from './sqlite-summary.store.js';
import { serializeError, WRITE_METHODS, type WriterReply, type WriterRequest, type WriterTarget } from './sqlite-writer.protocol.js';

type CallRequest = Extract<WriterRequest, { op: 'call' }>;

const port = parentPort!;
let db: Database | null = null;
let stores: Record<WriterTarget, object> | null = null;
/** Why the connection could not open: every later write fails with it rather than with a vaguer error. */
let openFailure: unknown = null;
const queue: WriterRequest[] = [];
let draining = false;

const reply = (id: number, outcome: PromiseSettledResult<unknown>) => port.postMessage(outcome.status === 'fulfilled'
  ? { id, ok: true, value: outcome.value } satisfies WriterReply
  : { id, ok: false, error: serializeError(outcome.reason) } satisfies WriterReply);

function open(request: Extract<WriterRequest, { op: 'open' }>): void {
  try {
    db = openSqliteConnection(request.file, request.options);
  } catch (error) {
    openFailure = error;
    throw error;
  }
  stores = {
    conversations: new SqliteConversationStore(db, request.file),
    embeddings: new SqliteEmbeddingQueue(db),
    summaries: new SqliteSummaryStore(db),
    archive: new SqliteConversationArchive(db),
    keys: new SqliteApiKeyStore(db),
  };
}

function invoke(request: CallRequest): Promise<unknown> {
  if (!stores) return Promise.reject(openFailure ?? new Error('the writer thread has no open database'));
  if (!(WRITE_METHODS[request.target] as readonly string[]).includes(request.method)) {
    return Promise.reject(new Error(`${request.target}.${request.method} is not a write`));
  }
  const store = stores[request.target] as Record<string, (...args: unknown[]) => Promise<unknown>>;
  try {
    return store[request.method]!(...request.args);
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * The store methods are synchronous inside (better-sqlite3): their promises are settled when they return, so
 * awaiting them lets no other message in, and the group's transaction holds only the group.
 */
async function storeGroup(calls: CallRequest[]): Promise<void> {
  if (calls.length > 1 && db && tryExec(db, 'BEGIN IMMEDIATE')) {
    const outcomes = await Promise.allSettled(calls.map(invoke));
    if (outcomes.every((outcome) => outcome.status === 'fulfilled') && db.inTransaction && tryExec(db, 'COMMIT')) {
      calls.forEach((call, i) => reply(call.id, outcomes[i]!));
      return;
    }
    if (db.inTransaction) db.exec('ROLLBACK');
  }
  for (const call of calls) {
    const [outcome] = await Promise.allSettled([invoke(call)]);
    reply(call.id, outcome!);
  }
}

/**
 * Runs BEGIN or COMMIT; false when it fails (the database stays busy past the busy wait, or the commit cannot
 * be written): the group then runs again one write at a time.
 */
function tryExec(connection: Database, sql: 'BEGIN IMMEDIATE' | 'COMMIT'): boolean {
  try {
    connection.exec(sql);
    return true;
  } catch {
    return false;
  }
}

/** Opens or closes the connection (the requests that are not writes). */
function control(request: Exclude<WriterRequest, CallRequest>): void {
  try {
    if (request.op === 'open') {
      open(request);
    } else {
      if (db?.open) db.close();
      db = null;
      stores = null;
    }
    reply(request.id, { status: 'fulfilled', value: null });
  } catch (error) {
    reply(request.id, { status: 'rejected', reason: error });
  }
}

async function drain(): Promise<void> {
  draining = true;
  while (queue.length > 0) {
    const batch = queue.splice(0);
    while (batch.length > 0) {
      if (batch[0]!.op !== 'call') {
        control(batch.shift() as Exclude<WriterRequest, CallRequest>);
        continue;
      }
      // The writes up to the next open or close form one group.
      const end = batch.findIndex((request) => request.op !== 'call');
      const group = batch.splice(0, end === -1 ? batch.length : end) as CallRequest[];
      await storeGroup(group).catch((error: unknown) => {
        for (const call of group) reply(call.id, { status: 'rejected', reason: error });
      });
    }
    // Let the messages that arrived meanwhile in before the next group is cut.
    await new Promise((resolve) => setImmediate(resolve));
  }
  draining = false;
}

port.on('message', (request: WriterRequest) => {
  queue.push(request);
  if (!draining) void drain();
});
