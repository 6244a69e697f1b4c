import type { Controller } from '../../src/controller.js';

/**
 * Work that runs inside the server process with direct access to the
 * controller (services and store), e.g. fast seeding that bypasses HTTP.
 * Export it from a module under its own name, so the server child can find
 * it: `export const seedThings = serverTask(import.meta.url, 'seedThings', async (controller, args) => ...)`.
 * Arguments and results cross a process boundary: keep them JSON-serialisable.
 */
export interface ServerTask<A, R> {
  module: string;
  name: string;
  run(controller: Controller, args: A): Promise<R>;
}

export function serverTask<A, R>(
  module: string,
  name: string,
  run: (controller: Controller, args: A) => Promise<R>,
): ServerTask<A, R> {
  return { module, name, run };
}

export function isServerTask(value: unknown): value is ServerTask<unknown, unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { run?: unknown }).run === 'function';
}
