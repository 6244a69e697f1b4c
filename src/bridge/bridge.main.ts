import { resolveApiKey } from '../config/api-key.js';
import { loadConfig } from '../config/config.loader.js';
import { pino } from 'pino';
import { buildBridgeApp } from './bridge.app.js';
import { modelCacheDir } from './builtin/embedding/builtin-model.js';
import { loggerOptions, survivesClosedOutput } from '../logging.js';
import { warnPlaintextListeners } from '../http/exposed-listeners.js';

/**
 * Starts the LLM bridge on its own: `npx tsx src/bridge/bridge.main.ts`
 * (or `node dist/src/bridge/bridge.main.js` after a build). Reads memsvc.yaml and
 * MEMSVC_* like the controller; listens on bridge.host:bridge.port.
 */
async function main(): Promise<void> {
  // Supervised, it writes to the controller's output: a reader gone from there must not end it either.
  survivesClosedOutput();
  const config = loadConfig();
  // The controller hands its key over as MEMSVC_API_KEY; started by hand, the same variable or the key file.
  const apiKey = resolveApiKey(config.server.api_key, config.server.data_dir).key;
  const { stream, ...logging } = loggerOptions({ level: config.server.log_level, component: 'bridge', output: process.stdout });
  const app = await buildBridgeApp(
    { ...config.bridge, cacheDir: modelCacheDir(config.server.data_dir) },
    { logger: pino(logging, stream), apiKey },
  );
  const close = async (signal: string): Promise<void> => {
    app.log.info({ signal }, 'bridge shutting down');
    await app.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void close('SIGINT'));
  process.once('SIGTERM', () => void close('SIGTERM'));
  // Supervised: a controller that ended without stopping it (killed, crashed) closes the channel; nothing else would.
  if (process.send) process.once('disconnect', () => void close('controller gone'));
  await app.listen({ host: config.bridge.host, port: config.bridge.port });
  // Supervised (forked with an IPC channel), the controller has already warned about this listener.
  if (!process.send) warnPlaintextListeners([{ name: 'bridge', host: config.bridge.host, port: config.bridge.port, tls: false }], app.log);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exit(1);
});
