import { randomFillSync, randomUUID } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A conversation's id: a random UUID (version 4), as the API reference gives it. */
export const newId = (): string => randomUUID();

/**
 * Random bytes for message ids, drawn from a pool refilled 256 ids at a time. Left to itself, uuid's v7 asks the
 * system for 16 bytes an id (crypto.getRandomValues): 4.6 µs each, on the writer thread, where creates and imports
 * make one per message (11% of an import's writer CPU); from the pool, 0.2 µs.
 */
const pool = new Uint8Array(16 * 256);
let taken = pool.length;

function randomBytes16(): Uint8Array {
  if (taken === pool.length) {
    randomFillSync(pool);
    taken = 0;
  }
  taken += 16;
  return pool.subarray(taken - 16, taken);
}

/**
 * uuid's own monotonic counter is used only when it draws its own random bytes, so it is kept here, as uuid
 * keeps it (RFC 9562 method 1): a new millisecond starts the counter at random, the same one counts up, and an
 * overflow borrows the next millisecond. Ids made in one process therefore only ever increase.
 */
const clock = { msecs: Number.NEGATIVE_INFINITY, seq: 0 };

/**
 * A message's id: a UUID of version 7, which begins with its creation time, so each new message's id goes at
 * the end of the stores' index of message ids rather than at a random place in it. With random ids every
 * message stored rewrote a different index page (26 KB written to storage a message, 100,000 stored through the
 * SQLite store alone; see bench/NOTES.md, "Storing messages", for the figure with these).
 */
export function newMessageId(): string {
  const random = randomBytes16();
  const now = Date.now();
  if (now > clock.msecs) {
    clock.msecs = now;
    clock.seq = ((random[6]! & 0x7f) << 24) | (random[7]! << 16) | (random[8]! << 8) | random[9]!;
  } else {
    clock.seq = (clock.seq + 1) | 0;
    if (clock.seq === 0) clock.msecs += 1;
  }
  return uuidv7({ random, msecs: clock.msecs, seq: clock.seq });
}

export const isUuid = (value: string): boolean => UUID_PATTERN.test(value);

/** The message_id of list items, which stand for a whole conversation rather than a message. */
export const NIL_UUID = '00000000-0000-0000-0000-000000000000';
