import type { MemsvcClient, QueryRequest } from '../../client/memsvc-client.js';

export interface SearchOptions {
  mode?: QueryRequest['mode'];
  folder?: string;
  label?: string;
  limit: number;
  json: boolean;
}

const oneLine = (text: string, max: number) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

/** Runs a query against the running service and prints the hits (or the whole response as JSON). */
export async function search(client: MemsvcClient, query: string, options: SearchOptions): Promise<string> {
  const filters = { ...(options.folder ? { folder: options.folder } : {}), ...(options.label ? { label: options.label } : {}) };
  const result = await client.search.query({
    query, limit: options.limit, ...(options.mode ? { mode: options.mode } : {}),
    ...(Object.keys(filters).length > 0 ? { filters } : {}),
  });
  if (options.json) return `${JSON.stringify(result, null, 2)}\n`;
  const lines = result.results.map((hit) =>
    `${hit.score.toFixed(3)}  ${hit.label} (${hit.folder})  ${hit.timestamp.slice(0, 10)}  ${hit.conversation_id}\n       ${oneLine(hit.content, 100)}`);
  const pending = (result as { pending_embeddings?: number }).pending_embeddings;
  const footer = `${result.results.length} of ${result.total} (${result.mode})` +
    (pending ? `; ${pending} messages still waiting to be embedded` : '');
  return `${[...lines, footer].join('\n')}\n`;
}
