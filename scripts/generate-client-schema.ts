/**
 * Regenerates src/client/openapi-schema.ts from the controller's own /openapi.json
 * (`npm run client:generate`). The client's types follow the route schemas this way.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { loadConfig } from '../src/config/config.loader.js';
import { buildController } from '../src/controller.js';

export const SCHEMA_FILE = fileURLToPath(new URL('../src/client/openapi-schema.ts', import.meta.url));

/** The TypeScript source generated from the current routes' OpenAPI document. */
export async function generateClientSchema(): Promise<string> {
  const dataDir = await mkdtemp(join(tmpdir(), 'memsvc-openapi-'));
  try {
    const config = loadConfig({ file: '/nonexistent/memsvc.yaml', env: {},
      overrides: { server: { data_dir: dataDir }, embedding_worker: { enabled: false } } });
    const controller = await buildController({ config, apiKey: 'unused', logger: false });
    try {
      const document = (await controller.app.inject({ method: 'GET', url: '/openapi.json' })).json();
      const ast = await openapiTS(document, { alphabetize: true, defaultNonNullable: false });
      return `// Generated from memsvc's /openapi.json by \`npm run client:generate\`; do not edit.\n${astToString(ast)}`;
    } finally {
      await controller.close();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await writeFile(SCHEMA_FILE, await generateClientSchema());
  process.stdout.write(`wrote ${SCHEMA_FILE}\n`);
}
