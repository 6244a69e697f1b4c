import { createRequire } from 'node:module';
import type compromise from 'compromise';

let loaded: typeof compromise | undefined;

/**
 * compromise's `nlp(text)`, the library loaded at the first call: evaluating it at import took ~0.5 s of the
 * bridge's start-up (which the controller's /health waits for), and only entity extraction and importance scores
 * use it. Its CommonJS build, which `require` can load at any point.
 */
export function nlp(text: string): ReturnType<typeof compromise> {
  loaded ??= createRequire(import.meta.url)('compromise') as typeof compromise;
  return loaded(text);
}
