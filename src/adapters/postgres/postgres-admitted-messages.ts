import type { SearchFilter } from '../../domain/search.js';
import { folderSubtreeRange, type SqlFragment, splitSearchFilterWhere } from '../sql/filter-sql.js';
import { numbered, type Pool } from './postgres-pool.js';

/** How long an answer is reused: it only chooses a plan (both plans answer the same), and folders grow slowly. */
const ANSWER_TTL_MS = 5_000;
/** Answers kept at most (all are dropped past it). */
const MAX_ANSWERS = 1_000;

/**
 * Whether the conversations a filter admits hold at most a number of messages, summed from their counters rather
 * than counted: a search under such a filter starts from those conversations, anything broader from its index.
 * False for a filter on messages alone (dates), which admits conversations only through their messages. One
 * request asks it for its full text and its vectors alike (hybrid search, context assembly), so answers are kept
 * a few seconds per replica.
 */
export class AdmittedMessages {
  private readonly answers = new Map<string, { small: boolean; at: number }>();

  constructor(private readonly pool: Pool) {}

  /**
   * The filter without the clauses that leave nothing out now: `archived: false` while no conversation is archived
   * (context assembly asks it of every search), `archived: true` while none is active, excluded folders that hold no
   * conversation. One statement of index probes; a search under what remains need not check each candidate's
   * conversation (context assembly's full text at 100K: 21 ms with the check, 12 without).
   */
  async withoutNoOps(filter: SearchFilter): Promise<SearchFilter> {
    const probes: SqlFragment[] = [];
    if (filter.archived !== undefined) probes.push({ sql: 'c.status = ?', params: [filter.archived ? 'active' : 'archived'] });
    for (const folder of filter.excludedFolders ?? []) probes.push(folderSubtreeRange('c.folder', folder));
    if (probes.length === 0) return filter;
    const { rows } = await this.pool.query<unknown[]>({
      text: numbered(`SELECT ${probes.map((probe) => `EXISTS (SELECT 1 FROM conversations c WHERE ${probe.sql})`).join(', ')}`),
      values: probes.flatMap((probe) => probe.params),
      rowMode: 'array',
    });
    const excludes = rows[0]!.map((value) => value === true);
    const narrowed: SearchFilter = { ...filter };
    let at = 0;
    if (filter.archived !== undefined && !excludes[at++]) delete narrowed.archived;
    const excluded = (filter.excludedFolders ?? []).filter(() => excludes[at++]);
    if (excluded.length > 0) narrowed.excludedFolders = excluded;
    else delete narrowed.excludedFolders;
    return narrowed;
  }

  async atMost(filter: SearchFilter, limit: number): Promise<boolean> {
    const { conversations } = splitSearchFilterWhere(filter, folderSubtreeRange);
    if (!conversations) return false;
    const key = `${limit} ${conversations.sql} ${JSON.stringify(conversations.params)}`;
    const known = this.answers.get(key);
    if (known && Date.now() - known.at < ANSWER_TTL_MS) return known.small;
    // LIMIT bounds the work on a broad filter: more conversations than messages allowed is an answer already.
    const { rows } = await this.pool.query<{ n: number }>(numbered(`SELECT coalesce(sum(message_count), 0) AS n
      FROM (SELECT c.message_count FROM conversations c WHERE ${conversations.sql} LIMIT ?) s`), [...conversations.params, limit + 1]);
    if (this.answers.size >= MAX_ANSWERS) this.answers.clear();
    const small = rows[0]!.n <= limit;
    this.answers.set(key, { small, at: Date.now() });
    return small;
  }
}
