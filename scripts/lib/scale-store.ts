import { join } from 'node:path';
import { startBenchBridge } from '../../bench/lib/bridge.js';
import { createHttpClient, type HttpClient } from '../../bench/lib/http-client.js';
import { startBenchServer } from '../../bench/lib/server.js';
import { API_KEY } from '../../bench/scale.bench.js';

/**
 * A bench bridge and controller (a child process, as the scale bench starts them; it inherits this environment) on an
 * existing scale-bench store (`<data dir>/scale`), answered once the index has caught up with the stored vectors and,
 * with `untilEmbedded`, nothing waits to be embedded.
 */
export async function openScaleStore(store: string, connections: number, untilEmbedded = false):
  Promise<{ client: HttpClient; close(): Promise<void> }> {
  const bridge = await startBenchBridge(join(store, 'bridge'), API_KEY);
  const server = await startBenchServer({ mode: 'child', keepData: true, dataDir: join(store, 'store'), bridgeUrl: bridge.url, apiKey: API_KEY });
  const client = createHttpClient(server.baseUrl, server.apiKey, connections);
  const close = async () => {
    client.close();
    await server.close();
    await bridge.close();
  };
  try {
    for (;;) {
      const status = JSON.parse((await client.request('GET', '/api/v1/embeddings/status')).body) as
        { pending?: number; index_catch_up?: { state: string } };
      if (status.index_catch_up?.state === 'failed') throw new Error('the index could not catch up with the stored vectors');
      if (status.index_catch_up?.state === 'ready' && (!untilEmbedded || status.pending === 0)) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } catch (error) {
    await close();
    throw error;
  }
  return { client, close };
}
