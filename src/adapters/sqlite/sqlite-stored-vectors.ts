import type { PackedVectors } from '../../domain/exact-search.js';
import type { SearchFilter } from '../../domain/search.js';
import { searchFilterWhere } from '../sql/filter-sql.js';
import { inKeys, keysParam, type StatementCache } from './sqlite-statements.js';

/** Stored vectors by key; a vector is deleted with its message (ON DELETE CASCADE), so a key without one is gone. */
export function storedVectors(statements: StatementCache, keys: readonly number[], dimension: number): PackedVectors {
  if (keys.length === 0) return { keys: [], matrix: new Float32Array(0), dimension };
  const rows = statements.get(`SELECT message_seq AS key, vector FROM message_vectors WHERE ${inKeys('message_seq')}`)
    .raw().all(keysParam(keys)) as Array<[number, Buffer]>;
  return packRows(rows, dimension);
}

/** The stored vectors of the messages `filter` admits, at most `limit`. */
export function matchingVectors(statements: StatementCache, filter: SearchFilter, limit: number, dimension: number): PackedVectors {
  const where = searchFilterWhere(filter);
  const rows = statements.get(`
    SELECT v.message_seq AS key, v.vector FROM message_vectors v
    JOIN messages m ON m.seq = v.message_seq JOIN conversations c ON c.id = m.conversation_id
    WHERE ${where.sql} LIMIT ?`).raw().all(...where.params, limit) as Array<[number, Buffer]>;
  return packRows(rows, dimension);
}

/** [key, float32 blob] rows into one matrix; a blob of another length (another model's) is left out. */
function packRows(rows: ReadonlyArray<[number, Buffer]>, dimension: number): PackedVectors {
  const bytes = dimension * 4;
  const kept = rows.filter(([, blob]) => blob.byteLength === bytes);
  const matrix = new Float32Array(kept.length * dimension);
  const target = new Uint8Array(matrix.buffer);
  kept.forEach(([, blob], row) => target.set(blob, row * bytes));
  return { keys: kept.map(([key]) => key), matrix, dimension };
}
