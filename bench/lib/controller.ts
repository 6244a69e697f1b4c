import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../src/config/config.loader.js';
import { buildController, type Controller } from '../../src/controller.js';
import { SHARED_MODEL_CACHE } from './bridge.js';

export interface ListeningController {
  controller: Controller;
  baseUrl: string;
  apiKey: string;
}

/**
 * The real controller (same composition root as `npm start`) on `dataDir`,
 * listening on 127.0.0.1 at an ephemeral port, without logging, rate limit,
 * embedding worker or bridge (unless given a bridge URL). Override keys the schema does not know (yet)
 * are dropped by the config loader.
 */
/** `apiKey`: the service key, which the bridge also requires (a bridge started with a key needs the same one). */
export async function startController(dataDir: string, bridgeUrl?: string, apiKey = `bench_${randomBytes(24).toString('base64url')}`):
  Promise<ListeningController> {
  const config = loadConfig({
    file: '/nonexistent',
    // Only what a scenario sets on purpose reaches the controller (load --durability full, admission limits, search settings).
    env: Object.fromEntries(Object.entries(process.env)
      .filter(([name]) => name === 'MEMSVC_STORAGE_DURABILITY' || name.startsWith('MEMSVC_ADMISSION_')
        || name.startsWith('MEMSVC_SEARCH_'))) as Record<string, string>,
    overrides: {
      server: { data_dir: dataDir, host: '127.0.0.1', port: 0 },
      rate_limit: { enabled: false },
      // With a bridge (its own process, see bench/lib/bridge.ts) the embedding worker runs as in production.
      embedding_worker: bridgeUrl ? { enabled: true } : { enabled: false },
      bridge: bridgeUrl ? { start: false, url: bridgeUrl } : { start: false },
    },
  });
  // With the bridge's builtin model, questions are embedded in process from its cache, as under `npm start`.
  const controller = await buildController({ config, apiKey, logger: false, modelCacheDir: SHARED_MODEL_CACHE });
  await controller.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = controller.app.server.address() as AddressInfo;
  return { controller, baseUrl: `http://127.0.0.1:${port}`, apiKey };
}
