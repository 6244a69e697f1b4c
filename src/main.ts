import { loadConfig } from './config/config.loader.js';
import { resolveApiKey } from './config/api-key.js';
import { buildController } from './controller.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const apiKey = resolveApiKey(config.server.api_key, config.server.data_dir);
  const controller = await buildController({ config, apiKey: apiKey.key });
  const { app } = controller;

  if (apiKey.generated) {
    // Printed once, on the first start, to stdout rather than the log stream.
    process.stdout.write(`\nmemsvc generated an API key (kept in ${apiKey.file}, mode 0600):\n\n  ${apiKey.key}\n\n`);
  }

  const shutdown = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    await controller.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ host: config.server.host, port: config.server.port });
}

main().catch((error: unknown) => {
  process.stderr.write(`memsvc failed to start: ${(error as Error).message}\n`);
  process.exit(1);
});
