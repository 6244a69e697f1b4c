import { asDomainError, ErrorCode, type DomainError, type ErrorKind } from '../domain/errors.js';

/** What a client is told: the HTTP status, the catalogue code and the message. */
export interface WireError {
  status: number;
  code: string;
  message: string;
}

const STATUS_BY_KIND: Record<ErrorKind, number> = {
  invalid_input: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  limit_exceeded: 400,
  unavailable: 503,
};

/** Codes whose status is more precise than their kind's. */
const STATUS_BY_CODE: Partial<Record<ErrorCode, number>> = {
  [ErrorCode.PAYLOAD_TOO_LARGE]: 413,
  [ErrorCode.RATE_LIMITED]: 429,
  [ErrorCode.STORAGE_FULL]: 507,
};

export const INTERNAL_ERROR: WireError = { status: 500, code: ErrorCode.INTERNAL_ERROR, message: 'Internal server error' };

/**
 * The one mapping from domain errors to the wire, used by the HTTP error
 * handler, the MCP tool envelope (REST and JSON-RPC) and the proxy.
 * Null for an error that is not the client's business (it becomes a logged 500).
 */
export function toWireError(error: unknown): WireError | null {
  const domain = asDomainError(error);
  return domain ? wireErrorOf(domain) : null;
}

export function wireErrorOf(error: DomainError): WireError {
  return { status: STATUS_BY_CODE[error.code] ?? STATUS_BY_KIND[error.kind], code: error.code, message: error.message };
}
