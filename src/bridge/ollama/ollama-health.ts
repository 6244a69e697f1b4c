import type { UpstreamClient } from '../upstream-client.js';

/**
 * Health probe of an Ollama server: `GET /api/tags` lists the pulled models;
 * fails when the server is unreachable or `model` has not been pulled.
 */
export async function checkOllamaModel(client: UpstreamClient, model: string, timeoutMs: number): Promise<void> {
  const tags = await client.getJson<{ models?: Array<{ name?: string; model?: string }> }>('/api/tags', { timeoutMs, maxRetries: 0 });
  const names = new Set<string>();
  for (const entry of tags?.models ?? []) {
    for (const name of [entry.name, entry.model]) {
      if (typeof name === 'string') {
        names.add(name);
        names.add(name.replace(/:latest$/, ''));
      }
    }
  }
  if (!names.has(model) && !names.has(model.replace(/:latest$/, ''))) {
    throw new Error(`model "${model}" is not available on the Ollama server; run: ollama pull ${model}`);
  }
}
