import { Worker } from 'node:worker_threads';

/**
 * Starts a worker thread running the module next to `base` named `name`
 * (without extension). Built code runs the `.js` file; under tsx (tests, dev,
 * benchmarks) worker threads do not inherit tsx's loader, so the worker
 * registers it before importing the `.ts` source.
 */
export function startModuleWorker(base: string, name: string, preload: readonly string[] = []): Worker {
  if (!base.endsWith('.ts')) return new Worker(new URL(`./${name}.js`, base));
  // Native addons hang when first loaded through tsx's hooks inside a worker: the bootstrap loads them first.
  const bootstrap = {
    preload: preload.map((specifier) => import.meta.resolve(specifier)),
    source: new URL(`./${name}.ts`, base).href,
  };
  return new Worker(new URL('./tsx-worker-bootstrap.mjs', import.meta.url), {
    execArgv: [], workerData: { __tsxBootstrap: bootstrap },
  });
}
