import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { loadConfig } from './config/config.loader.js';
import { PRIVATE_UMASK } from './config/private-files.js';
import { resolveApiKey } from './config/api-key.js';
import type { buildController } from './controller.js';
import { superviseBridge } from './bridge-process.js';
import { loggerOptions, survivesClosedOutput } from './logging.js';
import { startupBanner } from './startup-banner.js';
import { warnPlaintextListeners } from './http/exposed-listeners.js';
import { proxyUsesTls } from './config/tls-files.js';
import { VERSION } from './version.js';

export interface ServiceOptions {
  /** Banner and logs: stdout for `memsvc start`; stderr for `memsvc mcp`, whose stdout carries the protocol. */
  output?: NodeJS.WriteStream;
  /** When the configured port is taken, listen on a free one instead of failing (`memsvc mcp`). */
  portFallback?: boolean;
}

export interface RunningService {
  /** Where the API answers. */
  url: string;
  apiKey: string;
  close(): Promise<void>;
}

/** The whole service in this process: controller, supervised bridge, and the proxy when enabled. */
export async function startService(options: ServiceOptions = {}): Promise<RunningService> {
  const output = options.output ?? process.stdout;
  // Everything created under the data dir (database, WAL, spool, vectors, key) is the owner's alone.
  process.umask(PRIVATE_UMASK);
  let config = loadConfig();
  // A bridge we start ourselves is where we started it, whatever bridge.url says.
  if (config.bridge.start) {
    config = loadConfig({ overrides: { bridge: { url: `http://${config.bridge.host}:${config.bridge.port}` } } });
  }
  if (config.storage.driver === 'postgres' && config.server.api_key === '') {
    // Replicas behind one load balancer must share one key; a replica never makes up its own.
    throw new Error('storage.driver is postgres: set server.api_key (MEMSVC_API_KEY), the same on every replica');
  }
  const apiKey = resolveApiKey(config.server.api_key, config.server.data_dir);
  const logger = loggerOptions({ level: config.server.log_level, component: 'api', output });
  // The bridge requires the service's key; the one it supervises gets it here. It starts first, so that its own
  // start-up (modules, engine) runs beside the controller's (store, index, routes) rather than after it: healthy
  // needs both (bench/NOTES.md, session 32).
  const bridge = config.bridge.start
    ? superviseBridge({ ...process.env, MEMSVC_API_KEY: apiKey.key }, pino(logger, logger.stream), { output })
    : null;
  let controller: Awaited<ReturnType<typeof buildController>>;
  try {
    // Imported only now: loading the controller's modules takes about a second, which the bridge spends starting.
    const { buildController } = await import('./controller.js');
    controller = await buildController({ config, apiKey: apiKey.key, logger });
  } catch (error) {
    await bridge?.stop();
    throw error;
  }
  const { app } = controller;
  // The chat proxy runs in this process and uses the controller's services directly.
  const proxy = config.proxy.enabled
    ? await (await import('./proxy/proxy.app.js')).buildProxyApp({
      config, authenticator: controller.keys, conversations: controller.conversations,
      scoped: (scope) => controller.features.for(scope),
      logger: app.log.child({ component: 'proxy' }),
    })
    : null;

  const close = async () => {
    // The proxy first: its pending exchanges are stored through the controller.
    await proxy?.app.close();
    await Promise.all([controller.close(), bridge?.stop()]);
  };
  try {
    await app.listen({ host: config.server.host, port: config.server.port });
  } catch (error) {
    if (!options.portFallback || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE') {
      await close();
      throw error;
    }
    app.log.warn({ port: config.server.port }, 'port taken: listening on a free one');
    await app.listen({ host: config.server.host, port: 0 });
  }
  if (proxy) await proxy.app.listen({ host: config.proxy.host, port: config.proxy.port });

  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.server.port;
  const host = config.server.host === '0.0.0.0' || config.server.host === '::' ? '127.0.0.1' : config.server.host;
  const url = `${config.server.tls.cert_file ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${port}`;
  warnPlaintextListeners([
    { name: 'api', host: config.server.host, port, tls: config.server.tls.cert_file !== '' },
    ...(proxy ? [{ name: 'proxy' as const, host: config.proxy.host, port: config.proxy.port, tls: proxyUsesTls(config) }] : []),
    ...(bridge ? [{ name: 'bridge' as const, host: config.bridge.host, port: config.bridge.port, tls: false }] : []),
  ], app.log);
  output.write(startupBanner({ version: VERSION, url, config, apiKey }));
  return { url, apiKey: apiKey.key, close };
}

/** `memsvc start` and `node dist/main.js`: runs until SIGINT or SIGTERM. */
export async function runService(): Promise<void> {
  survivesClosedOutput();
  const service = await startService();
  const shutdown = async (signal: string) => {
    process.stderr.write(`memsvc: ${signal}, shutting down\n`);
    await service.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  runService().catch((error: unknown) => {
    process.stderr.write(`memsvc failed to start: ${(error as Error).message}\n`);
    process.exit(1);
  });
}
