import { isIP } from 'node:net';
import type { Logger } from '../ports/logger.js';

/** A socket the service listens on, and whether it speaks TLS. */
export interface Listener {
  name: 'api' | 'proxy' | 'bridge';
  host: string;
  port: number;
  tls: boolean;
}

/** 127.0.0.0/8, ::1 (also IPv4-mapped) and localhost: reachable from this machine only. */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost' || bare === '::1') return true;
  const v4 = bare.startsWith('::ffff:') ? bare.slice(7) : bare;
  return isIP(v4) === 4 && v4.startsWith('127.');
}

/**
 * One warning line at start for every listener others can reach in clear text:
 * the API key and every conversation cross the network readable. Returns the
 * listeners it warned about.
 */
export function warnPlaintextListeners(listeners: readonly Listener[], log: Logger): Listener[] {
  const exposed = listeners.filter((listener) => !listener.tls && !isLoopback(listener.host));
  if (exposed.length > 0) {
    log.warn({ listeners: exposed.map(({ name, host, port }) => ({ name, host, port })) },
      `listening beyond loopback without TLS: ${exposed.map((l) => `${l.name} on ${l.host}:${l.port}`).join(', ')}; ` +
      'the API key and conversations cross the network in clear text (set server.tls / proxy.tls, or put a TLS proxy in front)');
  }
  return exposed;
}
