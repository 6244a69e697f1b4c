import type { FastifyInstance, FastifySchema } from 'fastify';

export interface CatalogedRoute {
  method: string;
  url: string;
  /** The very schema object the route validates, serialises and is documented by. */
  schema?: FastifySchema;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route as registered, with its schema objects (not copies): what proves they are the features' own. */
    readonly routeCatalog: readonly CatalogedRoute[];
  }
}

/** Records each route as it is added; call before any route is registered. */
export function registerRouteCatalog(app: FastifyInstance): void {
  const routes: CatalogedRoute[] = [];
  app.decorate('routeCatalog', routes);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push({ method: String(method), url: route.url, schema: route.schema });
  });
}
