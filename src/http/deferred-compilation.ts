import type { FastifyInstance } from 'fastify';

/** A compiled validator or serializer: Fastify reads a validator's `errors` after a call that returned false. */
type Compiled = ((data: unknown) => unknown) & { errors?: unknown };

/**
 * Route validators and serializers compiled at their first use, or after the server listens, one per event-loop
 * turn (compileAll). Compiling every route's schemas when the routes were registered took the controller's start
 * 0.9-1.2 s (fast-json-stringify building each response serializer with an Ajv of its own; a slow 2-core machine),
 * before it could listen. A schema that cannot compile still fails: at its route's first use (a 500, logged) and
 * in compileAll, which the tests run over every route (test/api/schema-compilation.test.ts).
 */
export class DeferredCompilation {
  private readonly waiting = new Set<() => Compiled>();
  private compiled = 0;
  private stopped = false;

  /** How many are compiled and how many still wait. */
  counts(): { compiled: number; waiting: number } {
    return { compiled: this.compiled, waiting: this.waiting.size };
  }

  /** A function that compiles with `compile` at its first call (or in compileAll), then calls what it compiled. */
  defer(compile: () => Compiled): Compiled {
    let done: Compiled | null = null;
    const get = (): Compiled => {
      if (done === null) {
        this.waiting.delete(get);
        done = compile();
        this.compiled += 1;
      }
      return done;
    };
    const deferred: Compiled = (data: unknown) => {
      const fn = get();
      const result = fn(data);
      deferred.errors = fn.errors;
      return result;
    };
    deferred.errors = null;
    this.waiting.add(get);
    return deferred;
  }

  /** `factory`'s compilers, each compiling only when deferred's function is first called. */
  wrapFactory<Args extends unknown[], Route>(factory: (...args: Args) => (route: Route) => Compiled):
    (...args: Args) => (route: Route) => Compiled {
    return (...args) => {
      const compiler = factory(...args);
      return (route) => this.defer(() => compiler(route));
    };
  }

  /**
   * Compiles everything still waiting, one per turn of the event loop so that requests are answered between them.
   * Returns the errors of those that failed (each fails again at its first use).
   */
  async compileAll(): Promise<Error[]> {
    const errors: Error[] = [];
    while (!this.stopped && this.waiting.size > 0) {
      const [next] = this.waiting;
      try {
        next!(); // leaves the waiting set first, so one that throws is not tried again here
      } catch (error) {
        errors.push(error as Error);
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
    return errors;
  }

  /** No more background compiling (the server is closing). */
  stop(): void {
    this.stopped = true;
  }

  /** Compiles what waits once `app` listens, logging any schema that fails; stops when the app closes. */
  compileOnceListening(app: FastifyInstance): void {
    app.addHook('onListen', (done) => {
      void this.compileAll().then((errors) => {
        for (const error of errors) app.log.error({ err: error }, 'a route schema did not compile');
      });
      done();
    });
    app.addHook('onClose', (_, done) => {
      this.stop();
      done();
    });
  }
}
