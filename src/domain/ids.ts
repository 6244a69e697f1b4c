import { randomUUID } from 'node:crypto';

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const newId = (): string => randomUUID();

export const isUuid = (value: string): boolean => UUID_PATTERN.test(value);

/** The message_id of list items, which stand for a whole conversation rather than a message. */
export const NIL_UUID = '00000000-0000-0000-0000-000000000000';
