import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ErrorCode, UnavailableError } from '../domain/errors.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Present when admission control is on: each pool's running and queued requests. */
    admission?: { expensive: AdmissionPool; cheap: AdmissionPool };
  }
}

export interface AdmissionLimits {
  /** Requests of this class running at once. */
  concurrency: number;
  /** Requests waiting for a slot; past it, an immediate 503. */
  queueSize: number;
  /** How long a request may wait for a slot before it gets a 503. */
  queueTimeoutMs: number;
}

export interface AdmissionOptions {
  /** Search, context assembly, summaries, labels, imports/exports, MCP: CPU and I/O heavy. */
  expensive: AdmissionLimits;
  /** Reads and writes of single conversations. */
  cheap: AdmissionLimits;
}

/** A bounded pool: at most `concurrency` holders, a short FIFO queue with a deadline. */
export class AdmissionPool {
  private running = 0;
  private readonly waiting: Array<{ grant: () => void; timer: NodeJS.Timeout }> = [];

  constructor(readonly limits: AdmissionLimits) {}

  get depth(): { running: number; queued: number } {
    return { running: this.running, queued: this.waiting.length };
  }

  /** Resolves with a release function, or null when there is no room (full queue, or the deadline passed). */
  acquire(): Promise<(() => void) | null> {
    if (this.running < this.limits.concurrency) {
      this.running += 1;
      return Promise.resolve(this.releaser());
    }
    if (this.waiting.length >= this.limits.queueSize) return Promise.resolve(null);
    return new Promise((resolve) => {
      const entry = {
        grant: () => resolve(this.releaser()),
        timer: setTimeout(() => {
          const index = this.waiting.indexOf(entry);
          if (index >= 0) this.waiting.splice(index, 1);
          resolve(null);
        }, this.limits.queueTimeoutMs),
      };
      this.waiting.push(entry);
    });
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) {
        clearTimeout(next.timer);
        next.grant();
      } else {
        this.running -= 1;
      }
    };
  }
}

const EXPENSIVE = /\/(query|search|context|summar|labels|suggest|export|import|rebuild|prune|pruning|mcp)/;

/** Which pool a route belongs to, by its URL pattern. */
export const isExpensive = (request: FastifyRequest): boolean => EXPENSIVE.test(request.routeOptions.url ?? request.url);

/**
 * Admission control: every authenticated route takes a slot of its class for
 * its whole life (released when the response closes, however it ends). With
 * no slot free and the queue full or too slow, the answer is an immediate 503
 * with Retry-After, never a stall.
 */
export function registerAdmissionControl(app: FastifyInstance, options: AdmissionOptions): { expensive: AdmissionPool; cheap: AdmissionPool } {
  const pools = { expensive: new AdmissionPool(options.expensive), cheap: new AdmissionPool(options.cheap) };
  app.decorate('admission', pools);
  app.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.config?.public || request.url.startsWith('/docs')) return;
    const pool = isExpensive(request) ? pools.expensive : pools.cheap;
    const release = await pool.acquire();
    if (!release) {
      const retryAfter = Math.max(1, Math.ceil(pool.limits.queueTimeoutMs / 1000));
      reply.header('Retry-After', retryAfter);
      throw new UnavailableError(ErrorCode.OVERLOADED, `The service is busy: retry after ${retryAfter} s`, true);
    }
    // The response's close covers every normal end; the socket's, a client gone mid-body.
    reply.raw.once('close', release);
    request.raw.socket?.once('close', release);
    // A client that went away while queued closed its socket before these listeners existed.
    if (request.raw.socket?.destroyed !== false) release();
  });
  return pools;
}
