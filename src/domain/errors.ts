/** The one catalogue of error codes the service speaks on the wire. */
export const ErrorCode = {
  VALIDATION_ERROR: 'VALIDATION_ERROR',
  INVALID_JSON: 'INVALID_JSON',
  INVALID_FOLDER: 'INVALID_FOLDER',
  INVALID_FILTER: 'INVALID_FILTER',
  INVALID_QUERY: 'INVALID_QUERY',
  UNAUTHORIZED: 'UNAUTHORIZED',
  CONVERSATION_NOT_FOUND: 'CONVERSATION_NOT_FOUND',
  NOT_FOUND: 'NOT_FOUND',
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

/** An error meant for the client: its status, code and message go on the wire as they are. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export class ValidationError extends AppError {
  constructor(message: string, code: ErrorCode = ErrorCode.VALIDATION_ERROR) {
    super(400, code, message);
  }
}

export class ConversationNotFoundError extends AppError {
  constructor(id: string) {
    super(404, ErrorCode.CONVERSATION_NOT_FOUND, `Conversation not found: ${id}`);
  }
}

export class LimitExceededError extends AppError {
  constructor(code: ErrorCode, message: string, status = 400) {
    super(status, code, message);
  }
}

/**
 * The disk (or the configured storage.max_size_mb) is full: the write was refused whole
 * and nothing stored changed; it succeeds again once space returns.
 */
export class StorageFullError extends AppError {
  constructor() {
    super(507, ErrorCode.STORAGE_FULL, 'Storage is full: the write was not stored; free disk space (or raise storage.max_size_mb) and retry');
  }
}

/** SQLite's SQLITE_FULL or the file system's ENOSPC, from any layer. */
export function isStorageFull(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_FULL' || code === 'ENOSPC';
}
