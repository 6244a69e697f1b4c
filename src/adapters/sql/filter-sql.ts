import { ROOT_FOLDER } from '../../domain/folder-path.js';
import type { SearchFilter } from '../../domain/search.js';

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

/** WHERE clauses over `messages m JOIN conversations c` for a search filter, with `?` placeholders (SQLite and, numbered, Postgres). */
export function searchFilterWhere(filter: SearchFilter): SqlFragment {
  const clauses: string[] = [];
  const params: unknown[] = [];
  const add = (fragment: SqlFragment) => { clauses.push(fragment.sql); params.push(...fragment.params); };
  if (filter.folder !== undefined) add(folderSubtree('c.folder', filter.folder));
  if (filter.label !== undefined) add({ sql: 'c.label = ?', params: [filter.label] });
  if (filter.importanceMin !== undefined) add({ sql: 'c.importance_score >= ?', params: [filter.importanceMin] });
  if (filter.importanceMax !== undefined) add({ sql: 'c.importance_score <= ?', params: [filter.importanceMax] });
  if (filter.dateFrom !== undefined) add({ sql: 'm.timestamp >= ?', params: [filter.dateFrom] });
  if (filter.dateTo !== undefined) add({ sql: 'm.timestamp <= ?', params: [filter.dateTo] });
  if (filter.archived !== undefined) add({ sql: 'c.status = ?', params: [filter.archived ? 'archived' : 'active'] });
  for (const folder of filter.excludedFolders ?? []) {
    const subtree = folderSubtree('c.folder', folder);
    add({ sql: `NOT ${subtree.sql}`, params: subtree.params });
  }
  return { sql: clauses.length > 0 ? clauses.join(' AND ') : 'TRUE', params };
}

export const hasFilter = (filter: SearchFilter): boolean =>
  Object.values(filter).some((value) => value !== undefined && !(Array.isArray(value) && value.length === 0));
