import { ErrorCode, ValidationError } from './errors.js';

// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

/** Labels never hold control characters: create and rename refuse them. */
export const hasControlCharacters = (text: string): boolean => CONTROL_CHARACTERS.test(text);

/**
 * A label to filter by. No stored label holds a control character, so one in a
 * filter is the client's mistake: a 400 on every driver (PostgreSQL could not
 * even compare a NUL), rather than an empty answer on one and an error on another.
 */
export function labelFilter(label: string, field: string): string {
  if (hasControlCharacters(label)) throw new ValidationError(`${field} must not contain control characters`, ErrorCode.INVALID_FILTER, field);
  return label;
}
