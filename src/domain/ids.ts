import { randomUUID } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A conversation's id: a random UUID (version 4), as the API reference gives it. */
export const newId = (): string => randomUUID();

/**
 * A message's id: a UUID of version 7, which begins with its creation time, so each new message's id goes at
 * the end of the stores' index of message ids rather than at a random place in it. With random ids every
 * message stored rewrote a different index page (26 KB written to storage a message, 100,000 stored by
 * scripts/store-rate-probe.ts; see docs/performance.md for the figure with these).
 */
export const newMessageId = (): string => uuidv7();

export const isUuid = (value: string): boolean => UUID_PATTERN.test(value);

/** The message_id of list items, which stand for a whole conversation rather than a message. */
export const NIL_UUID = '00000000-0000-0000-0000-000000000000';
