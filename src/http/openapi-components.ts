import type { CatalogedRoute } from './route-catalog.js';

/** The name each exported schema object is published under in /openapi.json's components. */
export type SchemaNames = ReadonlyMap<object, string>;

interface OpenApiDocument {
  paths?: Record<string, Record<string, any>>;
  components?: { schemas?: Record<string, unknown> } & Record<string, unknown>;
}

/**
 * Moves each route's body and response schemas that are named feature schemas into
 * `components.schemas`, leaving a `$ref` where they were: a client generator then sees one
 * type per use case, shared by every route (and tool) that takes or answers it.
 */
export function nameComponents<T extends OpenApiDocument>(document: T, routes: readonly CatalogedRoute[], names: SchemaNames): T {
  const components: Record<string, unknown> = { ...document.components?.schemas };
  const refer = (slot: { schema?: unknown } | undefined, schema: unknown) => {
    const name = typeof schema === 'object' && schema !== null ? names.get(schema) : undefined;
    if (!slot?.schema || !name) return;
    components[name] ??= slot.schema;
    slot.schema = { $ref: `#/components/schemas/${name}` };
  };
  for (const route of routes) {
    const operation = document.paths?.[openApiPath(route.url)]?.[route.method.toLowerCase()];
    if (!operation || !route.schema) continue;
    refer(operation.requestBody?.content?.['application/json'], route.schema.body);
    for (const [status, schema] of Object.entries((route.schema.response ?? {}) as Record<string, unknown>)) {
      refer(operation.responses?.[status]?.content?.['application/json'], schema);
    }
  }
  return { ...document, components: { ...document.components, schemas: components } };
}

/** Fastify's `/conversations/:id` is OpenAPI's `/conversations/{id}`. */
const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
