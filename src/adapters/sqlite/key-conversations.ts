import type { Database, Statement } from 'better-sqlite3';
import type { SearchFilter } from '../../domain/search.js';
import { splitSearchFilterWhere } from '../sql/filter-sql.js';
import { admittedKeys } from './sqlite-admitted-keys.js';
import { inKeys, keysParam, type StatementCache } from './sqlite-statements.js';

/** Conversations read a step while the map is built: a few thousand message keys, a few ms of the thread. */
const CONVERSATIONS_A_STEP = 256;
/** Message keys read a step while the map follows new messages. */
const KEYS_A_STEP = 4096;
/** More new keys than this share of those mapped: the map is built again rather than followed. */
const REBUILD_BEHIND_SHARE = 0.25;

/**
 * Which conversation each stored message belongs to (the `rowid` of its conversations row), by message key, in
 * memory: 4 bytes a key. A filtered semantic search checks the index's candidates against its filter; by SQL each
 * key costs a lookup of its message and of its conversation, 10.5 ms for the 2,016 candidates of a 10% folder filter
 * at a million messages (5 GB file, all in the OS page cache), on the thread that asks. With this map it is the
 * filter's set of conversations (1.6 ms for 10,200 conversations) and an array read a key.
 *
 * Built in steps from the (conversation_id, position) index, never reading a message's content (0.95-1.8 s of this
 * thread at a million messages), then kept up with new messages (keys above `covered`, read on demand). Messages
 * never change conversation, but a deleted key can be used again by a new message (seq is max + 1): once any message
 * is deleted (migration 10 counts them) the map is not used until it is built again.
 */
export class KeyConversations {
  private conversations = new Int32Array(0);
  /** Every message with a key up to this is in the map (0: no such message). 0 while nothing is built. */
  private covered = 0;
  /** message_deletions.n when the map was built: any other value means it may be stale. */
  private builtAtDeletions = -1;
  private updating: Promise<void> | null = null;
  private readonly deletionCount: Statement;
  private readonly newestKey: Statement;
  private readonly newestConversation: Statement;
  /** A run of conversations' message keys, from the (conversation_id, position) index (CROSS JOIN keeps that order). */
  private readonly conversationKeys: Statement;
  /** The messages stored after a key, with their conversations, oldest first. */
  private readonly keysAfter: Statement;

  constructor(db: Database, private readonly stopped: () => boolean) {
    this.deletionCount = db.prepare('SELECT n FROM message_deletions WHERE id = 1').pluck();
    this.newestKey = db.prepare('SELECT max(seq) FROM messages').pluck();
    this.newestConversation = db.prepare('SELECT max(rowid) FROM conversations').pluck();
    this.conversationKeys = db.prepare(`SELECT c.rowid, m.seq FROM conversations c CROSS JOIN messages m
      ON m.conversation_id = c.id WHERE c.rowid > ? AND c.rowid <= ?`).raw();
    this.keysAfter = db.prepare(`SELECT m.seq, c.rowid FROM messages m JOIN conversations c ON c.id = m.conversation_id
      WHERE m.seq > ? ORDER BY m.seq LIMIT ?`).raw();
  }

  /** True when the map is built and no message was deleted since. */
  usable(): boolean {
    return this.covered > 0 && this.deletions() === this.builtAtDeletions;
  }

  /** Builds the map (again, after deletions) or adds the keys stored since, in steps between other work. */
  refresh(): Promise<void> {
    this.updating ??= this.update().finally(() => { this.updating = null; });
    return this.updating;
  }

  /** The rowid of `key`'s conversation (0: no such message), or undefined for a key stored since the last refresh. */
  conversationOf(key: number): number | undefined {
    return key > this.covered ? undefined : this.conversations[key] ?? 0;
  }

  private deletions(): number {
    return this.deletionCount.get() as number;
  }

  private async update(): Promise<void> {
    while (!this.stopped()) {
      const deletions = this.deletions();
      const top = (this.newestKey.get() as number | null) ?? 0;
      // Following reads the new messages' rows (their content too); far behind, building from the index reads less.
      if (deletions !== this.builtAtDeletions || top - this.covered > this.covered * REBUILD_BEHIND_SHARE) {
        if (!(await this.build(deletions))) return;
      } else {
        await this.follow();
        return;
      }
    }
  }

  /** Maps every message stored now, conversation by conversation; false if stopped part way. */
  private async build(deletions: number): Promise<boolean> {
    this.covered = 0;
    const top = (this.newestKey.get() as number | null) ?? 0;
    const lastConversation = (this.newestConversation.get() as number | null) ?? 0;
    const map = new Int32Array(top + 1 + KEYS_A_STEP);
    for (let from = 0; from < lastConversation; from += CONVERSATIONS_A_STEP) {
      if (this.stopped()) return false;
      for (const [conversation, key] of this.conversationKeys.iterate(from, from + CONVERSATIONS_A_STEP) as Iterable<[number, number]>) {
        // Keys above top were stored after the build began: follow() reads them.
        if (key <= top) map[key] = conversation;
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
    this.conversations = map;
    this.builtAtDeletions = deletions;
    this.covered = top;
    return true;
  }

  /** Adds the messages stored since the map was last brought up to date, a step at a time. */
  private async follow(): Promise<void> {
    while (!this.stopped()) {
      const rows = this.keysAfter.all(this.covered, KEYS_A_STEP) as Array<[number, number]>;
      if (rows.length === 0) return;
      const last = rows.at(-1)![0];
      if (last >= this.conversations.length) {
        const grown = new Int32Array(Math.max(last + 1, this.conversations.length * 2));
        grown.set(this.conversations);
        this.conversations = grown;
      }
      for (const [key, conversation] of rows) this.conversations[key] = conversation;
      // Keys are given out in order by one writer, so every message up to the last read is read.
      this.covered = last;
      if (rows.length < KEYS_A_STEP) return;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
}

/** Candidates at least, for the map to pay: below this SQL checks them key by key about as fast. */
export const MAP_MIN_KEYS = 256;
/**
 * Filters admitting at most this share of the vectors: reading the filter's conversations costs about 0.13 µs each
 * (13 ms for all 107,000 at a million messages), and a broad filter asks the index for few candidates anyway.
 */
export const MAP_MAX_SHARE = 0.25;

/**
 * The keys among `keys` whose message passes the filter (as admittedKeys), through `map` when it pays and is usable:
 * the conversations the filter admits are read once, each key's conversation comes from the map, and the filter's
 * message clauses (dates), if any, are checked in SQL on the keys whose conversation passes. Keys the map does not
 * know yet are checked in SQL.
 */
export function admittedThroughMap(
  statements: StatementCache, map: KeyConversations, keys: readonly number[], filter: SearchFilter,
  options: { selective: boolean; share: number },
): number[] {
  const split = splitSearchFilterWhere(filter);
  if (!split.conversations || keys.length < MAP_MIN_KEYS || options.share > MAP_MAX_SHARE || !map.usable()) {
    return admittedKeys(statements, keys, filter, options.selective);
  }
  const admitted = statements.get(`SELECT c.rowid FROM conversations c WHERE ${split.conversations.sql}`).pluck()
    .all(...split.conversations.params) as number[];
  const inFilter = new Set(admitted);
  let passing: number[] = [];
  const unknown: number[] = [];
  for (const key of keys) {
    const conversation = map.conversationOf(key);
    if (conversation === undefined) unknown.push(key);
    else if (inFilter.has(conversation)) passing.push(key);
  }
  if (split.messages.sql !== 'TRUE' && passing.length > 0) {
    passing = statements.get(`SELECT m.seq FROM messages m WHERE ${inKeys('m.seq')} AND ${split.messages.sql}`).pluck()
      .all(keysParam(passing), ...split.messages.params) as number[];
  }
  return unknown.length > 0 ? [...passing, ...admittedKeys(statements, unknown, filter, options.selective)] : passing;
}
