import { loadConfig } from './config/config.loader.js';
import { resolveApiKey } from './config/api-key.js';
import { buildController } from './controller.js';
import { superviseBridge } from './bridge-process.js';
import { buildProxyApp } from './proxy/proxy.app.js';

async function main(): Promise<void> {
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
  const controller = await buildController({ config, apiKey: apiKey.key });
  const { app } = controller;
  const bridge = config.bridge.start ? superviseBridge(process.env, app.log) : null;
  // The chat proxy runs in this process and uses the controller's services directly.
  const proxy = config.proxy.enabled
    ? await buildProxyApp({
      config, apiKey: apiKey.key, conversations: controller.conversations, context: controller.context,
      logger: app.log.child({ component: 'proxy' }),
    })
    : null;

  if (apiKey.generated) {
    // Printed once, on the first start, to stdout rather than the log stream.
    process.stdout.write(`\nmemsvc generated an API key (kept in ${apiKey.file}, mode 0600):\n\n  ${apiKey.key}\n\n`);
  }

  const shutdown = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    // The proxy first: its pending exchanges are stored through the controller.
    await proxy?.app.close();
    await Promise.all([controller.close(), bridge?.stop()]);
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ host: config.server.host, port: config.server.port });
  if (proxy) await proxy.app.listen({ host: config.proxy.host, port: config.proxy.port });
}

main().catch((error: unknown) => {
  process.stderr.write(`memsvc failed to start: ${(error as Error).message}\n`);
  process.exit(1);
});
