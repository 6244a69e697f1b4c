/**
 * Resolves on the event loop's next turn, after every promise continuation already queued has run.
 *
 * Searches start their semantic side first and await this before full text: the semantic side embeds the
 * question and hands its graph search to the index thread in continuations of the current turn, whereas full
 * text holds this thread (synchronous SQLite) from the moment it is called. Started in the other order, the
 * two would run one after the other rather than side by side.
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
