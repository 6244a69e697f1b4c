import * as domainErrors from '../../domain/errors.js';
import type { SqliteOpenOptions } from './sqlite-database.js';

/**
 * The stores whose writes run on the writer thread, and which of their methods write. Everything else
 * (every read) stays on the request thread's own connection.
 */
export const WRITE_METHODS = {
  conversations: ['create', 'update', 'setStatusMany', 'delete', 'appendMessages', 'touch'],
  embeddings: ['complete', 'recordFailure', 'resetAll', 'recordModel'],
  summaries: ['save'],
  archive: ['importAll'],
  keys: ['create', 'revoke', 'recordUse', 'signingSecret'],
} as const;

export type WriterTarget = keyof typeof WRITE_METHODS;

/** Messages between SqliteWriter (request thread) and sqlite-writer.worker.ts (writer thread). */
export type WriterRequest =
  | { id: number; op: 'open'; file: string; options: Pick<SqliteOpenOptions, 'synchronous' | 'maxSizeMb'> }
  | { id: number; op: 'call'; target: WriterTarget; method: string; args: unknown[] }
  | { id: number; op: 'close' };

export type WriterReply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: SerializedError };

/**
 * An error as it crosses the thread: a structured clone keeps neither an error's class nor its own fields
 * (a DomainError's code, SQLite's `code`), and the HTTP layer maps errors by both.
 */
export interface SerializedError {
  className: string;
  message: string;
  stack?: string;
  fields: Record<string, unknown>;
}

export function serializeError(error: unknown): SerializedError {
  if (!(error instanceof Error)) return { className: 'Error', message: String(error), fields: {} };
  const fields: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(error)) {
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) fields[name] = value;
  }
  return { className: error.constructor.name, message: error.message, stack: error.stack, fields };
}

const ERROR_CLASSES = new Map<string, { prototype: object }>(
  (Object.entries(domainErrors) as Array<[string, unknown]>)
    .filter((entry): entry is [string, { prototype: object }] =>
      typeof entry[1] === 'function' && (entry[1] as { prototype: unknown }).prototype instanceof Error),
);

/** The same error again on this side: a domain error of its own class, anything else an Error with its fields. */
export function deserializeError(serialized: SerializedError): Error {
  const prototype = ERROR_CLASSES.get(serialized.className)?.prototype ?? Error.prototype;
  const error = Object.create(prototype) as Error;
  Object.defineProperty(error, 'message', { value: serialized.message, writable: true, configurable: true });
  if (serialized.stack !== undefined) {
    Object.defineProperty(error, 'stack', { value: serialized.stack, writable: true, configurable: true });
  }
  return Object.assign(error, serialized.fields);
}
