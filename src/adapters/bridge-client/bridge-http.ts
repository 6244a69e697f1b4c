import { UpstreamError } from '../../ports/embedding-provider.js';

const isRetryableStatus = (status: number) => status === 408 || status === 429 || status >= 500;

/**
 * One JSON call to the LLM bridge. Every failure becomes an UpstreamError that
 * knows whether trying again later can help (unreachable, timeouts, 408, 429, 5xx).
 */
export async function callBridge<T>(
  baseUrl: string,
  timeoutMs: number,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  apiKey?: string,
): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    const reason = (error as Error).name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : (error as Error).message;
    throw new UpstreamError(`LLM bridge at ${baseUrl} is unreachable: ${reason}`, true);
  }
  const text = await response.text();
  if (!response.ok) {
    let detail = text.slice(0, 300);
    try {
      // The bridge's own errors are {error: string}; its OpenAI-shaped ones are {error: {message}}.
      const parsed = JSON.parse(text) as { error?: string | { message?: string } };
      detail = (typeof parsed.error === 'string' ? parsed.error : parsed.error?.message) ?? detail;
    } catch { /* not JSON */ }
    throw new UpstreamError(`LLM bridge ${method} ${path} failed with ${response.status}: ${detail}`,
      isRetryableStatus(response.status), response.status);
  }
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new UpstreamError(`LLM bridge ${method} ${path} returned invalid JSON`, true, response.status);
  }
}
