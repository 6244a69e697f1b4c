import type { SearchFilter } from '../domain/search.js';

/** Reads for context assembly's recall beyond search: pinned and recent messages, (adjacent turns come from MessageSearchReader.neighbours). */
export interface ContextReader {
  /** Messages of conversations with importance >= minImportance that pass the filter, newest first (then by key). */
  pinnedMessageKeys(filter: SearchFilter, minImportance: number, limit: number): Promise<number[]>;
  /** Messages with a timestamp at or after `since` that pass the filter, newest first (then by key). */
  recentMessageKeys(filter: SearchFilter, since: string, limit: number): Promise<number[]>;
}
