/** How a request of an index thread runs against the others (see RequestOrder). */
export type RequestKind = 'open' | 'change' | 'read' | 'close';

/**
 * The order an index thread runs its requests in: opening and changes one after another, in the order they came;
 * reads (searches, lookups, saves) at once, but not before the last opening has been answered; 'close' at once.
 */
export class RequestOrder {
  private changes: Promise<unknown> = Promise.resolve();
  private opened: Promise<unknown> = Promise.resolve();

  /** Runs `run` in its turn; `run` must not reject (it answers the request either way). */
  schedule(kind: RequestKind, run: () => Promise<void>): void {
    if (kind === 'open' || kind === 'change') {
      this.changes = this.changes.then(run);
      if (kind === 'open') this.opened = this.changes;
    } else if (kind === 'close') {
      void run();
    } else {
      void this.opened.then(run);
    }
  }
}
