import type { FastifyError, FastifyInstance } from 'fastify';
import { UpstreamError } from '../domain/upstream-error.js';
import { toWireError } from '../http/error-mapping.js';

/** OpenAI's error body: what every OpenAI client knows how to read. */
export interface OpenAiErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

/** Machine-readable codes the proxy itself answers with (upstream errors keep their own). */
export const ProxyErrorCode = {
  INVALID_REQUEST: 'invalid_request',
  INVALID_HEADER: 'invalid_header',
  INVALID_API_KEY: 'invalid_api_key',
  PERMISSION_DENIED: 'permission_denied',
  CONVERSATION_NOT_FOUND: 'conversation_not_found',
  ROUTE_NOT_FOUND: 'route_not_found',
  UPSTREAM_UNREACHABLE: 'upstream_unreachable',
  UPSTREAM_TIMEOUT: 'upstream_timeout',
  UPSTREAM_STREAM_FAILED: 'upstream_stream_failed',
  PAYLOAD_TOO_LARGE: 'payload_too_large',
  INTERNAL_ERROR: 'internal_error',
} as const;
export type ProxyErrorCode = (typeof ProxyErrorCode)[keyof typeof ProxyErrorCode];

/** An error the proxy answers with itself, in OpenAI's shape. */
export class ProxyError extends Error {
  override readonly name = 'ProxyError';
  constructor(
    readonly status: number,
    readonly code: ProxyErrorCode,
    message: string,
    readonly param: string | null = null,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  toBody(): OpenAiErrorBody {
    return openAiError(this.status, this.message, this.code, this.param);
  }
}

export function openAiError(status: number, message: string, code: string | null, param: string | null = null): OpenAiErrorBody {
  return { error: { message, type: openAiErrorType(status), param, code } };
}

/** The `type` OpenAI uses for a status. */
export function openAiErrorType(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return 'api_error';
  return 'invalid_request_error';
}

/** Every failure on the proxy's wire is OpenAI-shaped; unknown errors are logged and say nothing more. */
export function registerProxyErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | Error, request, reply) => {
    const body = describe(error);
    const status = statusOf(error);
    if (error instanceof UpstreamError) request.log.warn({ kind: error.kind, detail: error.message }, 'upstream call failed');
    else if (error instanceof ProxyError && status >= 500) request.log.warn({ code: error.code, detail: error.message }, 'upstream call failed');
    else if (status >= 500) request.log.error({ err: error }, 'proxy request failed');
    if (reply.sent || reply.raw.headersSent) {
      reply.raw.destroy();
      return reply;
    }
    return reply.code(status).type('application/json; charset=utf-8').send(body);
  });
  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send(openAiError(404, `Route not found: ${request.method} ${request.url.split('?')[0]}`, ProxyErrorCode.ROUTE_NOT_FOUND)));
}

/**
 * The proxy's answer when its upstream call failed before answering (a failure
 * while streaming goes to the client as an SSE error event with the same body).
 */
export function proxyErrorOf(error: UpstreamError, midStream = false): ProxyError {
  if (error.kind === 'timeout') return new ProxyError(504, ProxyErrorCode.UPSTREAM_TIMEOUT, error.message, null, { cause: error });
  const code = midStream ? ProxyErrorCode.UPSTREAM_STREAM_FAILED : ProxyErrorCode.UPSTREAM_UNREACHABLE;
  return new ProxyError(502, code, error.message, null, { cause: error });
}

function statusOf(error: FastifyError | Error): number {
  if (error instanceof ProxyError) return error.status;
  if (error instanceof UpstreamError) return proxyErrorOf(error).status;
  const known = toWireError(error);
  if (known) return known.status;
  const status = (error as FastifyError).statusCode;
  return status !== undefined && status >= 400 && status < 500 ? status : 500;
}

function describe(error: FastifyError | Error): OpenAiErrorBody {
  if (error instanceof ProxyError) return error.toBody();
  if (error instanceof UpstreamError) return proxyErrorOf(error).toBody();
  // Domain errors: the service's one mapping, in OpenAI's shape with the code in lower case.
  const known = toWireError(error);
  if (known) return openAiError(known.status, known.message, known.code.toLowerCase());
  const fastifyError = error as FastifyError;
  const status = statusOf(error);
  if (status === 413) return openAiError(413, 'Request body is too large', ProxyErrorCode.PAYLOAD_TOO_LARGE);
  if (error instanceof SyntaxError || fastifyError.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || fastifyError.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
    return openAiError(400, 'Body is not valid JSON', ProxyErrorCode.INVALID_REQUEST);
  }
  if (status < 500) return openAiError(status, error.message, ProxyErrorCode.INVALID_REQUEST);
  return openAiError(500, 'Internal proxy error', ProxyErrorCode.INTERNAL_ERROR);
}
