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

export type UpstreamFailureKind =
  /** No answer within timeout_ms. */
  | 'timeout'
  /** Connection refused / reset / DNS failure: nothing answered. */
  | 'network'
  /** The upstream answered with a non-2xx status. */
  | 'http'
  /** The upstream answered 2xx but the body is not what its protocol promises. */
  | 'invalid_response'
  /** Our caller went away (client disconnected); never retried. */
  | 'aborted';

export interface UpstreamErrorInit {
  provider: string;
  kind: UpstreamFailureKind;
  url: string;
  message: string;
  status?: number;
  /** Upstream body (truncated), kept for logs and pass-through. */
  body?: string;
  retryAfterMs?: number;
  cause?: unknown;
}

/**
 * A failed call to an upstream model server (Ollama, an OpenAI-compatible API).
 * Knows whether repeating the same request may succeed: network errors,
 * 408, 429 and 5xx are retryable; other 4xx, timeouts of our own budget and
 * malformed answers are not.
 */
export class UpstreamError extends Error {
  override readonly name = 'UpstreamError';
  readonly provider: string;
  readonly kind: UpstreamFailureKind;
  readonly url: string;
  readonly status: number | undefined;
  readonly body: string | undefined;
  readonly retryAfterMs: number | undefined;

  constructor(init: UpstreamErrorInit) {
    super(init.message, { cause: init.cause });
    this.provider = init.provider;
    this.kind = init.kind;
    this.url = init.url;
    this.status = init.status;
    this.body = init.body;
    this.retryAfterMs = init.retryAfterMs;
  }

  get retryable(): boolean {
    if (this.kind === 'network') return true;
    if (this.kind !== 'http' || this.status === undefined) return false;
    return isRetryableStatus(this.status);
  }

  /** The status and code the bridge answers with when this error reaches a route. */
  toBridgeError(): BridgeError {
    const where = `${this.provider} upstream`;
    switch (this.kind) {
      case 'timeout':
        return new BridgeError(504, BridgeErrorCode.UPSTREAM_TIMEOUT, `${where} did not answer in time: ${this.message}`, { cause: this });
      case 'network':
        return new BridgeError(503, BridgeErrorCode.UPSTREAM_UNAVAILABLE, `${where} is unreachable: ${this.message}`, { cause: this });
      case 'invalid_response':
        return new BridgeError(502, BridgeErrorCode.UPSTREAM_BAD_RESPONSE, `${where} sent an invalid response: ${this.message}`, { cause: this });
      case 'aborted':
        return new BridgeError(503, BridgeErrorCode.UPSTREAM_UNAVAILABLE, `${where} call was aborted`, { cause: this });
      case 'http': {
        const status = this.status ?? 502;
        if (status === 429) return new BridgeError(503, BridgeErrorCode.UPSTREAM_RATE_LIMITED, `${where} is rate limiting: ${this.message}`, { cause: this });
        if (status >= 500 || status === 408) return new BridgeError(502, BridgeErrorCode.UPSTREAM_ERROR, `${where} failed: ${this.message}`, { cause: this });
        return new BridgeError(502, BridgeErrorCode.UPSTREAM_REJECTED, `${where} rejected the request: ${this.message}`, { cause: this });
      }
    }
  }
}

export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}
