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
  private readonly answers = new Map<string, { messages: number; at: number }>();
  /** withoutNoOps probes under way, by filter clauses. */
  private readonly probing = new Map<string, Promise<{ archived: boolean; folders: string[] }>>();

  constructor(private readonly pool: Pool) {}

  /**
   * The filter without the clauses that leave nothing out now: `archived: false` while no conversation is archived
   * (context assembly asks it of every search), `archived: true` while none is active, excluded folders that hold no
   * conversation. One statement of index probes, never reused after it settles (an archive counts at once); searches
   * that ask for the same filter while it runs (context assembly's full text and vectors) share it. A search under
   * what remains need not check each candidate's conversation (context assembly's full text at 100K: 21 ms with the
   * check, 12 without).
   */
  withoutNoOps(filter: SearchFilter): Promise<SearchFilter> {
    const folders = filter.excludedFolders ?? [];
    if (filter.archived === undefined && folders.length === 0) return Promise.resolve(filter);
    const key = JSON.stringify([filter.archived, folders]);
    let pending = this.probing.get(key);
    if (!pending) {
      pending = this.excluding(filter.archived, folders).finally(() => this.probing.delete(key));
      this.probing.set(key, pending);
    }
    return pending.then(({ archived, folders: kept }) => {
      const narrowed: SearchFilter = { ...filter };
      if (!archived) delete narrowed.archived;
      if (kept.length > 0) narrowed.excludedFolders = kept;
      else delete narrowed.excludedFolders;
      return narrowed;
    });
  }

  /** Whether the archived clause leaves any conversation out, and the excluded folders that hold one. */
  private async excluding(archived: boolean | undefined, folders: readonly string[]) {
    const probes: SqlFragment[] = folders.map((folder) => folderSubtreeRange('c.folder', folder));
    if (archived !== undefined) probes.unshift({ sql: 'c.status = ?', params: [archived ? 'active' : 'archived'] });
    const { rows } = await this.pool.query<boolean[]>({
      text: numbered(`SELECT ${probes.map((probe) => `EXISTS (SELECT 1 FROM conversations c WHERE ${probe.sql})`).join(', ')}`),
      values: probes.flatMap((probe) => probe.params),
      rowMode: 'array',
    });
    const found = rows[0]!;
    const folderFound = archived === undefined ? found : found.slice(1);
    return { archived: archived !== undefined && found[0] === true, folders: folders.filter((_, i) => folderFound[i] === true) };
  }

  async atMost(filter: SearchFilter, limit: number): Promise<boolean> {
    const held = await this.messagesUpTo(filter, limit);
    return held !== null && held <= limit;
  }

  /**
   * The messages of the conversations the filter admits, summed from their counters over at most `limit` + 1 of
   * them (more conversations than `limit` messages allowed is an answer already), or null for a filter on messages
   * alone.
   */
  async messagesUpTo(filter: SearchFilter, limit: number): Promise<number | null> {
    const { conversations } = splitSearchFilterWhere(filter, folderSubtreeRange);
    if (!conversations) return null;
    const key = `${limit} ${conversations.sql} ${JSON.stringify(conversations.params)}`;
    const known = this.answers.get(key);
    if (known && Date.now() - known.at < ANSWER_TTL_MS) return known.messages;
    const { rows } = await this.pool.query<{ n: number }>(numbered(`SELECT coalesce(sum(message_count), 0) AS n
      FROM (SELECT c.message_count FROM conversations c WHERE ${conversations.sql} LIMIT ?) s`), [...conversations.params, limit + 1]);
    if (this.answers.size >= MAX_ANSWERS) this.answers.clear();
    const messages = rows[0]!.n;
    this.answers.set(key, { messages, at: Date.now() });
    return messages;
  }
}
