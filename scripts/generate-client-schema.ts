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
      relaxDefaults(document);
      const ast = await openapiTS(document, { alphabetize: true, defaultNonNullable: false });
      return `// Generated from memsvc's /openapi.json by \`npm run client:generate\`; do not edit.\n${astToString(ast)}`;
    } finally {
      await controller.close();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

type Node = { [key: string]: unknown };
const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null;

/**
 * What a caller may leave out: request fields and query parameters the server fills with a default.
 * (Fastify lists them as required, which is true of the validated request but not of what is sent.)
 */
function relaxDefaults(document: Node): void {
  const relaxSchema = (schema: unknown): void => {
    if (Array.isArray(schema)) return schema.forEach(relaxSchema);
    if (!isNode(schema)) return;
    const properties = schema.properties;
    if (isNode(properties) && Array.isArray(schema.required)) {
      schema.required = schema.required.filter((name) => !(isNode(properties[name]) && 'default' in properties[name]));
    }
    for (const value of Object.values(schema)) relaxSchema(value);
  };
  for (const path of Object.values(document.paths as Node)) {
    for (const operation of Object.values(path as Node)) {
      if (!isNode(operation)) continue;
      for (const parameter of (operation.parameters ?? []) as Node[]) {
        if (isNode(parameter.schema) && 'default' in parameter.schema) parameter.required = false;
      }
      const content = (operation.requestBody as Node | undefined)?.content;
      relaxSchema(content);
      // A named body (a $ref to components) is relaxed where it is defined.
      for (const ref of JSON.stringify(content ?? {}).match(/#\/components\/schemas\/[^"]+/g) ?? []) {
        relaxSchema(((document.components as Node).schemas as Node)[ref.split('/').pop()!]);
      }
    }
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await writeFile(SCHEMA_FILE, await generateClientSchema());
  process.stdout.write(`wrote ${SCHEMA_FILE}\n`);
}
