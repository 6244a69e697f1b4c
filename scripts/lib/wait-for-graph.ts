import type { SearchService } from '../../src/features/search/search.service.js';

/** How long a probe waits for a store's saved graph to load (a million vectors load in about 6 s). */
const GRAPH_LOAD_WAIT_MS = 120_000;

/**
 * Waits until `query` gets semantic answers: after a start the saved graph loads in the background, and until
 * then semantic searches answer empty. With `caughtUp`, also until they are no longer partial (the start-up
 * catch-up has ended). Gives up after GRAPH_LOAD_WAIT_MS, as a store without vectors never answers.
 */
export async function waitForGraph(search: SearchService, query: string, options: { caughtUp?: boolean } = {}): Promise<void> {
  const by = Date.now() + GRAPH_LOAD_WAIT_MS;
  for (;;) {
    const answer = await search.query({ query, limit: 10, offset: 0, mode: 'semantic' });
    if (answer.hits.length > 0 && !(options.caughtUp && answer.partial)) return;
    if (Date.now() > by) throw new Error(`no ${options.caughtUp ? 'complete ' : ''}semantic answer within ${GRAPH_LOAD_WAIT_MS / 1000} s: is the store embedded?`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
