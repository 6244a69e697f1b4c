import type { UpstreamError } from '../domain/upstream-error.js';

/**
 * Errors raised inside the bridge. The bridge is its own service, so it keeps
 * its own small catalogue; the error handler in bridge.app.ts turns them into
 * `{"error": "<message>", "code": "<CODE>"}` (or OpenAI's error shape on /v1/*).
 */

export const BridgeErrorCode = {
  VALIDATION_FAILED: 'VALIDATION_FAILED',
  INVALID_JSON: 'INVALID_JSON',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  ROUTE_NOT_FOUND: 'ROUTE_NOT_FOUND',
  UNAUTHORIZED: 'UNAUTHORIZED',
  CHAT_NOT_CONFIGURED: 'CHAT_NOT_CONFIGURED',
  EMBEDDER_UNAVAILABLE: 'EMBEDDER_UNAVAILABLE',
  UPSTREAM_UNAVAILABLE: 'UPSTREAM_UNAVAILABLE',
  UPSTREAM_RATE_LIMITED: 'UPSTREAM_RATE_LIMITED',
  UPSTREAM_TIMEOUT: 'UPSTREAM_TIMEOUT',
  UPSTREAM_ERROR: 'UPSTREAM_ERROR',
  UPSTREAM_REJECTED: 'UPSTREAM_REJECTED',
  UPSTREAM_BAD_RESPONSE: 'UPSTREAM_BAD_RESPONSE',
  INTERNAL_ERROR: 'INTERNAL_ERROR',
} as const;
export type BridgeErrorCode = (typeof BridgeErrorCode)[keyof typeof BridgeErrorCode];

/** An error with a known HTTP status and machine-readable code. */
export class BridgeError extends Error {
  override readonly name: string = 'BridgeError';
  constructor(
    readonly status: number,
    readonly code: BridgeErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The status and code the bridge answers with when an upstream call failed. */
export function bridgeErrorOf(error: UpstreamError): BridgeError {
  const where = `${error.provider} upstream`;
  const cause = { cause: error };
  switch (error.kind) {
    case 'timeout':
      return new BridgeError(504, BridgeErrorCode.UPSTREAM_TIMEOUT, `${where} did not answer in time: ${error.message}`, cause);
    case 'network':
      return new BridgeError(503, BridgeErrorCode.UPSTREAM_UNAVAILABLE, `${where} is unreachable: ${error.message}`, cause);
    case 'invalid_response':
      return new BridgeError(502, BridgeErrorCode.UPSTREAM_BAD_RESPONSE, `${where} sent an invalid response: ${error.message}`, cause);
    case 'aborted':
      return new BridgeError(503, BridgeErrorCode.UPSTREAM_UNAVAILABLE, `${where} call was aborted`, cause);
    case 'http': {
      if (error.status === 429) return new BridgeError(503, BridgeErrorCode.UPSTREAM_RATE_LIMITED, `${where} is rate limiting: ${error.message}`, cause);
      if (error.retryable) return new BridgeError(502, BridgeErrorCode.UPSTREAM_ERROR, `${where} failed: ${error.message}`, cause);
      return new BridgeError(502, BridgeErrorCode.UPSTREAM_REJECTED, `${where} rejected the request: ${error.message}`, cause);
    }
  }
}
