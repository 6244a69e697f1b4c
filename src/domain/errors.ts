/** The one catalogue of error codes the service speaks on the wire. */
export const ErrorCode = {
  VALIDATION_ERROR: 'VALIDATION_ERROR',
  INVALID_JSON: 'INVALID_JSON',
  INVALID_FOLDER: 'INVALID_FOLDER',
  INVALID_FILTER: 'INVALID_FILTER',
  INVALID_QUERY: 'INVALID_QUERY',
  UNAUTHORIZED: 'UNAUTHORIZED',
  FORBIDDEN: 'FORBIDDEN',
  CONVERSATION_NOT_FOUND: 'CONVERSATION_NOT_FOUND',
  NOT_FOUND: 'NOT_FOUND',
  CONFLICT: 'CONFLICT',
  OUT_OF_SEQUENCE: 'OUT_OF_SEQUENCE',
  MESSAGE_TOO_LONG: 'MESSAGE_TOO_LONG',
  TOO_MANY_MESSAGES: 'TOO_MANY_MESSAGES',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  RATE_LIMITED: 'RATE_LIMITED',
  UPSTREAM_UNAVAILABLE: 'UPSTREAM_UNAVAILABLE',
  STORAGE_FULL: 'STORAGE_FULL',
  OVERLOADED: 'OVERLOADED',
  INTERNAL_ERROR: 'INTERNAL_ERROR',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/**
 * What went wrong, in the domain's words. Services and the layers around them
 * decide on kinds; only the error mapping (http/error-mapping.ts) knows HTTP statuses.
 */
export type ErrorKind = 'invalid_input' | 'not_found' | 'conflict' | 'limit_exceeded' | 'unavailable' | 'unauthorized' | 'forbidden';

export type InvalidInputCode = (typeof ErrorCode)[
  'VALIDATION_ERROR' | 'INVALID_JSON' | 'INVALID_FOLDER' | 'INVALID_FILTER' | 'INVALID_QUERY'];
export type NotFoundCode = (typeof ErrorCode)['CONVERSATION_NOT_FOUND' | 'NOT_FOUND'];
export type ConflictCode = (typeof ErrorCode)['CONFLICT' | 'OUT_OF_SEQUENCE'];
export type LimitCode = (typeof ErrorCode)['MESSAGE_TOO_LONG' | 'TOO_MANY_MESSAGES' | 'PAYLOAD_TOO_LARGE' | 'RATE_LIMITED'];
export type UnavailableCode = (typeof ErrorCode)['UPSTREAM_UNAVAILABLE' | 'OVERLOADED' | 'STORAGE_FULL'];

/** An error meant for the client: its code and message go on the wire as they are. */
export abstract class DomainError extends Error {
  abstract readonly kind: ErrorKind;
  constructor(
    readonly code: ErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The request is wrong; `field` names the offending part the way the client wrote it (`messages[2].content`). */
export class ValidationError extends DomainError {
  readonly kind = 'invalid_input';
  constructor(message: string, code: InvalidInputCode = ErrorCode.VALIDATION_ERROR, readonly field?: string) {
    super(code, message);
  }
}

export class NotFoundError extends DomainError {
  readonly kind = 'not_found';
  constructor(message: string, code: NotFoundCode = ErrorCode.NOT_FOUND) {
    super(code, message);
  }
}

export class ConversationNotFoundError extends NotFoundError {
  constructor(id: string) {
    super(`Conversation not found: ${id}`, ErrorCode.CONVERSATION_NOT_FOUND);
  }
}

/**
 * The request contradicts what is stored (the same id with other content, say), or comes out of the order it
 * names (OUT_OF_SEQUENCE: an import batch whose predecessor was not stored).
 */
export class ConflictError extends DomainError {
  readonly kind = 'conflict';
  constructor(message: string, code: ConflictCode = ErrorCode.CONFLICT) {
    super(code, message);
  }
}

/** A configured limit refuses the request: a message too long, too many of them, too many requests. */
export class LimitExceededError extends DomainError {
  readonly kind = 'limit_exceeded';
  constructor(code: LimitCode, message: string, readonly field?: string) {
    super(code, message);
  }
}

/** The service cannot do this now; `retryable` says whether the same request may succeed later. */
export class UnavailableError extends DomainError {
  readonly kind = 'unavailable';
  constructor(code: UnavailableCode, message: string, readonly retryable: boolean, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}

export class UnauthorizedError extends DomainError {
  readonly kind = 'unauthorized';
  constructor(message = 'Invalid or missing API key') {
    super(ErrorCode.UNAUTHORIZED, message);
  }
}

/** The caller's key is valid but its grants do not cover this (a write outside its write grants, an admin route). */
export class ForbiddenError extends DomainError {
  readonly kind = 'forbidden';
  constructor(message: string) {
    super(ErrorCode.FORBIDDEN, message);
  }
}

/**
 * The disk (or the configured storage.max_size_mb) is full: the write was refused whole
 * and nothing stored changed; it succeeds again once space returns.
 */
export class StorageFullError extends UnavailableError {
  constructor() {
    super(ErrorCode.STORAGE_FULL,
      'Storage is full: the write was not stored; free disk space (or raise storage.max_size_mb) and retry', true);
  }
}

/** SQLite's SQLITE_FULL or the file system's ENOSPC, from any layer. */
export function isStorageFull(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_FULL' || code === 'ENOSPC';
}

/** A domain error as it is, or the one a storage-full failure from any layer stands for; null for anything else. */
export function asDomainError(error: unknown): DomainError | null {
  if (error instanceof DomainError) return error;
  if (isStorageFull(error)) return new StorageFullError();
  return null;
}
