/**
 * The filter-read thread (see sqlite-filter-reads.ts): its own read-only connection to the database file, and the
 * same reads the request thread would run.
 */
import { parentPort } from 'node:worker_threads';
import type { Database } from 'better-sqlite3';
import { openSqliteConnection } from './sqlite-database.js';
import { PageCachePrimer } from './sqlite-page-cache-prime.js';
import type { ScoredKey } from '../../domain/search.js';
import { KeyConversations } from './key-conversations.js';
import { filterReadsOn, type FilterReadReply, type FilterReadRequest, type FilterReads } from './sqlite-filter-reads.js';

const port = parentPort!;
let db: Database | null = null;
let reads: FilterReads | null = null;
/** Fills the connection's page cache between requests (at the start, and while the store grows into it). */
let primer: PageCachePrimer | null = null;
/** Each stored message's conversation, for checking a filter's candidates; built in steps after the open. */
let keyConversations: KeyConversations | null = null;

/** A map that cannot be brought up to date stays unused (SQL checks the keys): never an unhandled rejection here. */
function refreshKeyConversations(): void {
  keyConversations?.refresh().catch(() => undefined);
}

async function handle(request: FilterReadRequest): Promise<ScoredKey[] | number[] | null> {
  if (request.op === 'open') {
    const opened = openSqliteConnection(request.file);
    opened.pragma('query_only = ON');
    db = opened;
    const stopped = () => db !== opened || !opened.open;
    keyConversations = new KeyConversations(opened, stopped);
    reads = filterReadsOn(opened, keyConversations);
    primer = new PageCachePrimer(opened, stopped);
    void primer.primeIfDue();
    refreshKeyConversations();
    return null;
  }
  if (request.op === 'close') {
    if (db?.open) db.close();
    db = null;
    reads = null;
    primer = null;
    keyConversations = null;
    return null;
  }
  if (!reads) throw new Error('the filter-read thread has no open database');
  void primer?.primeIfDue();
  if (request.op === 'scan') return reads.scan(request.query, request.filter, request.limit, request.depth);
  if (request.op === 'rerank') return reads.rerank(request.query, request.keys, request.depth);
  // Brings the map up to the newest keys first (one short read when it is current; the rest continues in steps).
  refreshKeyConversations();
  return reads.admit(request.keys, request.filter, { selective: request.selective, share: request.share });
}

port.on('message', (request: FilterReadRequest) => {
  handle(request).then(
    (value) => port.postMessage({ id: request.id, ok: true, value } satisfies FilterReplyOk),
    (error: unknown) => port.postMessage({ id: request.id, ok: false, error: error instanceof Error ? error.message : String(error) } satisfies FilterReadReply),
  );
});

type FilterReplyOk = Extract<FilterReadReply, { ok: true }>;
