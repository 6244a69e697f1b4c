export type UpstreamFailureKind =
  /** No answer within the time allowed. */
  | 'timeout'
  /** Connection refused / reset / DNS failure: nothing answered, or the connection broke. */
  | 'network'
  /** The upstream answered with a non-2xx status. */
  | 'http'
  /** The upstream answered 2xx but the body is not what its protocol promises. */
  | 'invalid_response'
  /** Our caller went away (client disconnected); never retried. */
  | 'aborted';

export interface UpstreamErrorInit {
  /** Who was called: "bridge", "ollama", "openai", "upstream". */
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
 * A failed call to another service: the LLM bridge, an upstream model server
 * (Ollama, an OpenAI-compatible API), the proxy's upstream. The one type the
 * bridge client, the bridge's providers, the proxy and the embedding worker share.
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

  /** Whether the same request may succeed if tried again: see isRetryableFailure. */
  get retryable(): boolean {
    return isRetryableFailure(this.kind, this.status);
  }
}

/**
 * The one retryability rule. Timeouts, connection errors, 408, 429 and 5xx may
 * pass on another try; other 4xx, malformed answers and our own caller's abort
 * will not.
 */
export function isRetryableFailure(kind: UpstreamFailureKind, status?: number): boolean {
  switch (kind) {
    case 'timeout':
    case 'network':
      return true;
    case 'http':
      return status !== undefined && isRetryableStatus(status);
    case 'invalid_response':
    case 'aborted':
      return false;
  }
}

export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}
