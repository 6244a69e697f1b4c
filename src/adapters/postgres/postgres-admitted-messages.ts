import type { SearchFilter } from '../../domain/search.js';
import { folderSubtreeRange, splitSearchFilterWhere } from '../sql/filter-sql.js';
import { numbered, type Pool } from './postgres-pool.js';

/**
 * Whether the conversations a filter admits hold at most `limit` messages, summed from their counters rather than
 * counted: a search under such a filter starts from those conversations, anything broader from its index. False for
 * a filter on messages alone (dates), which admits conversations only through their messages.
 */
export async function admitsAtMostMessages(pool: Pool, filter: SearchFilter, limit: number): Promise<boolean> {
  const { conversations } = splitSearchFilterWhere(filter, folderSubtreeRange);
  if (!conversations) return false;
  // LIMIT bounds the work on a broad filter: more conversations than messages allowed is an answer already.
  const { rows } = await pool.query<{ n: number }>(numbered(`SELECT coalesce(sum(message_count), 0) AS n
    FROM (SELECT c.message_count FROM conversations c WHERE ${conversations.sql} LIMIT ?) s`), [...conversations.params, limit + 1]);
  return rows[0]!.n <= limit;
}
