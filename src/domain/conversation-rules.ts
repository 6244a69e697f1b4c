import { MAX_AUTHOR_NAME_CHARS, type MessageInput } from './conversation.js';
import { ErrorCode, LimitExceededError, ValidationError } from './errors.js';
import { boundedJsonBytes } from './json-bounds.js';
import { hasControlCharacters } from './label.js';
import { parseTimestamp } from './timestamp.js';

/**
 * What a stored conversation's label and messages must satisfy beyond their schema (the limits
 * are configured). Create, append, rename and import all apply these, so an import can never
 * store what create would refuse.
 */
export interface MessageLimits {
  maxMessageChars: number;
  maxMessagesPerConversation: number;
  maxMetadataBytes: number;
}

/** Trimmed; 1 to maxChars characters; no control characters. */
export function checkLabel(label: string, maxChars: number, field = 'label'): string {
  const trimmed = label.trim();
  if (trimmed === '') throw new ValidationError(`${field} must not be empty`, ErrorCode.VALIDATION_ERROR, field);
  if (hasControlCharacters(trimmed)) throw new ValidationError(`${field} must not contain control characters`, ErrorCode.VALIDATION_ERROR, field);
  if (trimmed.length > maxChars) throw new ValidationError(`${field} is longer than ${maxChars} characters`, ErrorCode.VALIDATION_ERROR, field);
  return trimmed;
}

/** A message's author name: the rules of a label (trimmed, no control characters), at most MAX_AUTHOR_NAME_CHARS. */
export const checkAuthorName = (name: string, field = 'name'): string => checkLabel(name, MAX_AUTHOR_NAME_CHARS, field);

/**
 * The messages as stored: at most maxMessagesPerConversation of them, content within maxMessageChars
 * and free of NUL, author names trimmed (checkAuthorName), timestamps parsed (UTC), metadata within
 * maxMetadataBytes. `field` names the list in errors (`messages`, or `line 3: messages` for an import).
 */
export function checkMessages(inputs: readonly MessageInput[], limits: MessageLimits, field = 'messages'): MessageInput[] {
  const { maxMessageChars, maxMessagesPerConversation, maxMetadataBytes } = limits;
  if (inputs.length > maxMessagesPerConversation) {
    throw new LimitExceededError(ErrorCode.TOO_MANY_MESSAGES,
      `${field}: a conversation holds at most ${maxMessagesPerConversation} messages (${inputs.length} were sent)`, field);
  }
  return inputs.map((input, index) => {
    const at = `${field}[${index}]`;
    if (characterCount(input.content, maxMessageChars) > maxMessageChars) {
      throw new LimitExceededError(ErrorCode.MESSAGE_TOO_LONG, `${at}.content is longer than ${maxMessageChars} characters`, `${at}.content`);
    }
    // No text a person writes holds U+0000, and PostgreSQL text cannot store it: refused on every driver alike.
    if (input.content.includes('\u0000')) throw new ValidationError(`${at}.content must not contain the NUL character (U+0000)`, ErrorCode.VALIDATION_ERROR, `${at}.content`);
    let timestamp: string | undefined;
    if (input.timestamp !== undefined) {
      const parsed = parseTimestamp(input.timestamp);
      if (parsed === null) throw new ValidationError(`${at}.timestamp is not an ISO 8601 date-time`, ErrorCode.VALIDATION_ERROR, `${at}.timestamp`);
      timestamp = parsed;
    }
    if (input.metadata != null && boundedJsonBytes(input.metadata, `${at}.metadata`) > maxMetadataBytes) {
      throw new ValidationError(`${at}.metadata is larger than ${maxMetadataBytes} bytes`, ErrorCode.VALIDATION_ERROR, `${at}.metadata`);
    }
    const name = input.name == null ? null : checkAuthorName(input.name, `${at}.name`);
    return { role: input.role, name, content: input.content, timestamp, metadata: input.metadata ?? null };
  });
}

/** Characters as people count them (code points); the UTF-16 length is an upper bound, so check it first. */
function characterCount(text: string, max: number): number {
  if (text.length <= max) return text.length;
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}
