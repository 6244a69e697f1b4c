import { UpstreamError, type UpstreamFailureKind } from '../../domain/upstream-error.js';

/**
 * One JSON call to the LLM bridge. Every failure becomes an UpstreamError that
 * knows whether trying again later can help (the one rule in domain/upstream-error.ts).
 */
export async function callBridge<T>(
  baseUrl: string,
  timeoutMs: number,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  apiKey?: string,
): Promise<T> {
  const url = `${baseUrl}${path}`;
  const failure = (kind: UpstreamFailureKind, message: string, status?: number) =>
    new UpstreamError({ provider: 'bridge', kind, url, message, status });
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    const timedOut = (error as Error).name === 'TimeoutError';
    const reason = timedOut ? `no answer within ${timeoutMs} ms` : (error as Error).message;
    throw failure(timedOut ? 'timeout' : 'network', `LLM bridge at ${baseUrl} is unreachable: ${reason}`);
  }
  const text = await response.text();
  if (!response.ok) {
    let detail = text.slice(0, 300);
    try {
      // The bridge's own errors are {error: string}; its OpenAI-shaped ones are {error: {message}}.
      const parsed = JSON.parse(text) as { error?: string | { message?: string } };
      detail = (typeof parsed.error === 'string' ? parsed.error : parsed.error?.message) ?? detail;
    } catch { /* not JSON */ }
    throw failure('http', `LLM bridge ${method} ${path} failed with ${response.status}: ${detail}`, response.status);
  }
  try {
    return JSON.parse(text) as T;
  } catch {
    throw failure('invalid_response', `LLM bridge ${method} ${path} returned invalid JSON`, response.status);
  }
}
