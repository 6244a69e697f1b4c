// Development only (the built code starts its workers from .js files): worker
// threads do not inherit tsx's loader, so this registers it, after loading the
// native packages that must not load through its hooks, then runs the worker.
import { workerData } from 'node:worker_threads';

const { preload, source } = workerData.__tsxBootstrap;
for (const url of preload) await import(url);
const { register } = await import('tsx/esm/api');
register();
await import(source);
