import { ROOT_FOLDER } from '../../domain/folder-path.js';
import type { SearchFilter } from '../../domain/search.js';
import type { ArchiveCursor, ArchiveFilter } from '../../ports/conversation-archive.js';
import type { ConversationFilter, ConversationSortField } from '../../ports/conversation-store.js';

export interface SqlFragment {
  sql: string;
  params: unknown[];
}

/**
 * `column` is the folder or lies below it. '0' is the character after '/', so the
 * range holds exactly the paths under `folder/`, and the folder index serves it.
 */
export function folderSubtree(column: string, folder: string): SqlFragment {
  if (folder === ROOT_FOLDER) return { sql: 'TRUE', params: [] };
  return { sql: `(${column} = ? OR (${column} >= ? AND ${column} < ?))`, params: [folder, `${folder}/`, `${folder}0`] };
}

/**
 * The same subtree as folderSubtree, written as one range with the exact test inside it: PostgreSQL's planner turns
 * the range into index bounds, where folderSubtree's OR made it scan the whole folder index with a filter.
 */
export function folderSubtreeRange(column: string, folder: string): SqlFragment {
  if (folder === ROOT_FOLDER) return { sql: 'TRUE', params: [] };
  return { sql: `(${column} >= ? AND ${column} < ? AND (${column} = ? OR ${column} >= ?))`,
    params: [folder, `${folder}0`, folder, `${folder}/`] };
}

/**
 * `column` lies in one of the subtrees (a tenant's visible folders); FALSE for none. One subtree is the plain
 * subtree test, so a tenant holding one folder is searched exactly as that folder filter is.
 */
export function folderWithin(column: string, within: readonly string[], subtree: typeof folderSubtree = folderSubtree): SqlFragment {
  if (within.length === 0) return { sql: 'FALSE', params: [] };
  if (within.length === 1) return subtree(column, within[0]!);
  const parts = within.map((folder) => subtree(column, folder));
  return { sql: `(${parts.map((part) => part.sql).join(' OR ')})`, params: parts.flatMap((part) => part.params) };
}

/** folderWithin, or TRUE when there is no `within` (every folder). */
export function optionalWithin(column: string, within: readonly string[] | undefined,
  subtree: typeof folderSubtree = folderSubtree): SqlFragment {
  return within === undefined ? { sql: 'TRUE', params: [] } : folderWithin(column, within, subtree);
}

/** The columns of `messages m` a search filter reads (searchFilterWhere): what a query standing in for `m` must carry. */
export const MESSAGE_FILTER_COLUMNS = ['timestamp'] as const;

/** WHERE clauses over `messages m JOIN conversations c` for a search filter, with `?` placeholders (SQLite and, numbered, Postgres). */
export function searchFilterWhere(filter: SearchFilter, subtree: typeof folderSubtree = folderSubtree): SqlFragment {
  const clauses: string[] = [];
  const params: unknown[] = [];
  const add = (fragment: SqlFragment) => { clauses.push(fragment.sql); params.push(...fragment.params); };
  if (filter.folder !== undefined) add(subtree('c.folder', filter.folder));
  if (filter.within !== undefined) add(folderWithin('c.folder', filter.within, subtree));
  if (filter.label !== undefined) add({ sql: 'c.label = ?', params: [filter.label] });
  if (filter.importanceMin !== undefined) add({ sql: 'c.importance_score >= ?', params: [filter.importanceMin] });
  if (filter.importanceMax !== undefined) add({ sql: 'c.importance_score <= ?', params: [filter.importanceMax] });
  if (filter.dateFrom !== undefined) add({ sql: 'm.timestamp >= ?', params: [filter.dateFrom] });
  if (filter.dateTo !== undefined) add({ sql: 'm.timestamp <= ?', params: [filter.dateTo] });
  if (filter.archived !== undefined) add({ sql: 'c.status = ?', params: [filter.archived ? 'archived' : 'active'] });
  for (const folder of filter.excludedFolders ?? []) {
    const excluded = subtree('c.folder', folder);
    add({ sql: `NOT ${excluded.sql}`, params: excluded.params });
  }
  return { sql: clauses.length > 0 ? clauses.join(' AND ') : 'TRUE', params };
}

/**
 * The same filter as searchFilterWhere, split: `conversations` holds the clauses on `c` (a WHERE over
 * `conversations c`, or null when none), `messages` those on `m`. A selective filter then reads as
 * "the message's conversation is in this set", which SQLite builds once from the conversations' indexes.
 */
export function splitSearchFilterWhere(filter: SearchFilter, subtree: typeof folderSubtree = folderSubtree):
  { conversations: SqlFragment | null; messages: SqlFragment } {
  const messageOnly: SearchFilter = {};
  if (filter.dateFrom !== undefined) messageOnly.dateFrom = filter.dateFrom;
  if (filter.dateTo !== undefined) messageOnly.dateTo = filter.dateTo;
  const conversationOnly: SearchFilter = { ...filter, dateFrom: undefined, dateTo: undefined };
  return {
    conversations: hasFilter(conversationOnly) ? searchFilterWhere(conversationOnly, subtree) : null,
    messages: searchFilterWhere(messageOnly),
  };
}

/** A `within` of no folders is a filter too: it admits nothing. */
export const hasFilter = (filter: SearchFilter): boolean => filter.within !== undefined
  || Object.values(filter).some((value) => value !== undefined && !(Array.isArray(value) && value.length === 0));

/** The column of each sort field: a whitelist, so no request text reaches ORDER BY. */
export const CONVERSATION_SORT_COLUMNS: Readonly<Record<ConversationSortField, string>> = {
  created_at: 'created_at',
  updated_at: 'updated_at',
  importance_score: 'importance_score',
  label: 'label',
};

/**
 * `WHERE …` (or '') over `conversations` for a conversation filter; folders match their subtree.
 * `folderColumn` lets the SQLite driver write `+folder`, which keeps SQLite off the folder index
 * so it walks the sort index instead (sqlite-conversation.store.ts, list()).
 */
export function conversationWhere(filter: ConversationFilter, folderColumn = 'folder'): SqlFragment {
  const clauses: string[] = [];
  const params: unknown[] = [];
  if (filter.label !== undefined) { clauses.push('label = ?'); params.push(filter.label); }
  if (filter.folder !== undefined && filter.folder !== ROOT_FOLDER) {
    const subtree = folderSubtree(folderColumn, filter.folder);
    clauses.push(subtree.sql);
    params.push(...subtree.params);
  }
  if (filter.within !== undefined) {
    const within = folderWithin(folderColumn, filter.within);
    clauses.push(within.sql);
    params.push(...within.params);
  }
  if (filter.pinned !== undefined) clauses.push(`importance_score ${filter.pinned ? '>=' : '<'} 10`);
  if (filter.archived !== undefined) { clauses.push('status = ?'); params.push(filter.archived ? 'archived' : 'active'); }
  return { sql: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', params };
}

/** `WHERE …` (or '') over `conversations` for an export page: the filter, then after the cursor in (created_at, id) order. */
export function archivePageWhere(filter: ArchiveFilter, after: ArchiveCursor | null): SqlFragment {
  const clauses: string[] = [];
  const params: unknown[] = [];
  if (filter.from !== undefined) { clauses.push('updated_at >= ?'); params.push(filter.from); }
  if (filter.to !== undefined) { clauses.push('created_at <= ?'); params.push(filter.to); }
  if (filter.folder !== undefined) {
    const subtree = folderSubtree('folder', filter.folder);
    clauses.push(subtree.sql);
    params.push(...subtree.params);
  }
  if (filter.within !== undefined) {
    const within = folderWithin('folder', filter.within);
    clauses.push(within.sql);
    params.push(...within.params);
  }
  if (after) { clauses.push('(created_at, id) > (?, ?)'); params.push(after.createdAt, after.id); }
  return { sql: clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : '', params };
}
