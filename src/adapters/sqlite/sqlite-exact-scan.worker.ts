/**
 * The exact-scan thread (see sqlite-exact-scan.ts): its own read-only connection to the database file, and the
 * same scan the request thread would run.
 */
import { parentPort } from 'node:worker_threads';
import type { Database } from 'better-sqlite3';
import { openSqliteConnection } from './sqlite-database.js';
import type { ScoredKey } from '../../domain/search.js';
import { exactScanOn, type ExactScan, type ScanReply, type ScanRequest } from './sqlite-exact-scan.js';

const port = parentPort!;
let db: Database | null = null;
let scan: ExactScan | null = null;

async function handle(request: ScanRequest): Promise<ScoredKey[] | null> {
  if (request.op === 'open') {
    db = openSqliteConnection(request.file);
    db.pragma('query_only = ON');
    scan = exactScanOn(db);
    return null;
  }
  if (request.op === 'close') {
    if (db?.open) db.close();
    db = null;
    scan = null;
    return null;
  }
  if (!scan) throw new Error('the exact-scan thread has no open database');
  return scan(request.query, request.filter, request.limit, request.depth);
}

port.on('message', (request: ScanRequest) => {
  handle(request).then(
    (value) => port.postMessage({ id: request.id, ok: true, value } satisfies ScanReply),
    (error: unknown) => port.postMessage({ id: request.id, ok: false, error: error instanceof Error ? error.message : String(error) } satisfies ScanReply),
  );
});
