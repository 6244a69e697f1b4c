/** Every failed call: the HTTP status (0 when the server could not be reached) and memsvc's error code. */
export class MemsvcError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** For 429 and 503: how long the server asked to wait, in milliseconds. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** 400 and 413: the request was refused as it is; the message names the field. */
export class MemsvcValidationError extends MemsvcError {}
/** 401: no key, or a wrong one. */
export class MemsvcAuthError extends MemsvcError {}
/** 403: the key is valid but its grants do not cover this (a write outside its write grants, an admin route). */
export class MemsvcForbiddenError extends MemsvcError {}
/** 404: an unknown conversation (or one outside the key's grants), or an unknown route. */
export class MemsvcNotFoundError extends MemsvcError {}
/** 409: the request contradicts what is stored (a duplicate key name, an import batch out of sequence). */
export class MemsvcConflictError extends MemsvcError {}
/** 429 after the client's retries ran out. */
export class MemsvcRateLimitError extends MemsvcError {}
/** 503, or no answer at all (status 0): the service is starting, stopped or unreachable. */
export class MemsvcUnavailableError extends MemsvcError {}

/** Parses Retry-After (delta-seconds or an HTTP date) into milliseconds from now. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The typed error for a non-2xx response with memsvc's `{error, code}` body. */
export function errorFromResponse(response: Response, body: unknown): MemsvcError {
  const answer = (typeof body === 'object' && body !== null ? body : {}) as { error?: unknown; code?: unknown };
  // A tool's failure envelope carries {code, message} under `error`; the API's error has them at the top.
  const envelope = typeof answer.error === 'object' && answer.error !== null ? answer.error as { code?: unknown; message?: unknown } : null;
  const payload = envelope ? { error: envelope.message, code: envelope.code } : answer;
  const message = typeof payload.error === 'string' ? payload.error
    : typeof body === 'string' && body !== '' ? body : `${response.status} ${response.statusText}`.trim();
  const code = typeof payload.code === 'string' ? payload.code : `HTTP_${response.status}`;
  const wait = retryAfterMs(response.headers.get('retry-after'));
  const ErrorClass = response.status === 401 ? MemsvcAuthError
    : response.status === 403 ? MemsvcForbiddenError
    : response.status === 404 ? MemsvcNotFoundError
    : response.status === 409 ? MemsvcConflictError
      : response.status === 429 ? MemsvcRateLimitError
        : response.status === 503 ? MemsvcUnavailableError
          : response.status === 400 || response.status === 413 ? MemsvcValidationError
            : MemsvcError;
  return new ErrorClass(response.status, code, message, wait);
}
