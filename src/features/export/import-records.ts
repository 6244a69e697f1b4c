import { DEFAULT_IMPORTANCE, type MessageRole } from '../../domain/conversation.js';
import { EMPTY_CONVERSATION, planAppend } from '../../domain/append-plan.js';
import { ErrorCode, LimitExceededError, ValidationError } from '../../domain/errors.js';
import { normalizeFolder, ROOT_FOLDER, type FolderLimits } from '../../domain/folder-path.js';
import { isUuid, newId } from '../../domain/ids.js';
import { boundedJsonBytes } from '../../domain/json-bounds.js';
import { parseTimestamp } from '../../domain/timestamp.js';
import type { ImportedConversation } from '../../ports/conversation-archive.js';

export interface ImportLimits {
  maxMessageChars: number;
  maxMessagesPerConversation: number;
  maxLabelChars: number;
  maxMetadataBytes: number;
  folder: FolderLimits;
  /** An idle gap longer than this starts a new session (for records without session_count). */
  sessionGapMs: number;
}

const ROLES: readonly MessageRole[] = ['user', 'assistant', 'system'];

/** Names a record and its fields in error messages: "line 3" / "line 3: messages[0].role", or "conversations[2].label". */
export interface RecordPlace {
  record: string;
  field(path: string): string;
}

export const linePlace = (line: number): RecordPlace =>
  ({ record: `line ${line}`, field: (path) => `line ${line}: ${path}` });
export const elementPlace = (prefix: string, index: number): RecordPlace =>
  ({ record: `${prefix}[${index}]`, field: (path) => `${prefix}[${index}].${path}` });

/**
 * Checks one exported conversation record and turns it into what the store
 * imports. Fields an export writes but import computes (word_count,
 * message_count) and unknown fields are ignored.
 */
export function parseConversationRecord(raw: unknown, place: RecordPlace, limits: ImportLimits, now: string): ImportedConversation {
  const record = object(raw, place.record);
  const field = place.field;

  let id = newId();
  if (record.id !== undefined) {
    if (typeof record.id !== 'string' || !isUuid(record.id)) throw new ValidationError(`${field('id')} must be a UUID`);
    id = record.id.toLowerCase();
  }
  if (typeof record.label !== 'string') {
    throw new ValidationError(record.label === undefined ? `${field('label')} is required` : `${field('label')} must be a string`);
  }
  const label = record.label.trim();
  if (label === '') throw new ValidationError(`${field('label')} must not be empty`);
  if (label.length > limits.maxLabelChars) throw new ValidationError(`${field('label')} is longer than ${limits.maxLabelChars} characters`);
  let folder = ROOT_FOLDER;
  if (record.folder !== undefined && record.folder !== null) {
    if (typeof record.folder !== 'string') throw new ValidationError(`${field('folder')} must be a string`);
    folder = normalizeFolder(record.folder, limits.folder, field('folder'));
  }
  const status = record.status ?? 'active';
  if (status !== 'active' && status !== 'archived') throw new ValidationError(`${field('status')} must be one of: active, archived`);
  const importance = record.importance_score ?? record.importance ?? DEFAULT_IMPORTANCE;
  if (typeof importance !== 'number' || !Number.isInteger(importance) || importance < 1 || importance > 10) {
    throw new ValidationError(`${field('importance_score')} must be an integer from 1 to 10`);
  }

  const rawMessages = record.messages ?? [];
  if (!Array.isArray(rawMessages)) throw new ValidationError(`${field('messages')} must be an array`);
  if (rawMessages.length > limits.maxMessagesPerConversation) {
    throw new LimitExceededError(ErrorCode.TOO_MANY_MESSAGES,
      `${field('messages')}: a conversation holds at most ${limits.maxMessagesPerConversation} messages (${rawMessages.length} were sent)`);
  }
  const createdAt = optionalDate(record.created_at, field('created_at'));
  const messageDefaultTime = createdAt ?? now;
  const messages = rawMessages.map((rawMessage, index) => {
    const at = field(`messages[${index}]`);
    const message = object(rawMessage, at);
    if (typeof message.role !== 'string' || !ROLES.includes(message.role as MessageRole)) {
      throw new ValidationError(`${at}.role must be one of: ${ROLES.join(', ')}`);
    }
    if (typeof message.content !== 'string' || message.content === '') {
      throw new ValidationError(`${at}.content must be a non-empty string`);
    }
    if (message.content.includes('\u0000')) throw new ValidationError(`${at}.content must not contain the NUL character (U+0000)`);
    if (characterCount(message.content, limits.maxMessageChars) > limits.maxMessageChars) {
      throw new LimitExceededError(ErrorCode.MESSAGE_TOO_LONG, `${at}.content is longer than ${limits.maxMessageChars} characters`);
    }
    let messageId: string | null = null;
    if (message.id !== undefined && message.id !== null) {
      if (typeof message.id !== 'string' || !isUuid(message.id)) throw new ValidationError(`${at}.id must be a UUID`);
      messageId = message.id.toLowerCase();
    }
    const metadata = message.metadata ?? null;
    if (metadata !== null && (typeof metadata !== 'object' || Array.isArray(metadata))) {
      throw new ValidationError(`${at}.metadata must be an object or null`);
    }
    if (metadata !== null && boundedJsonBytes(metadata, `${at}.metadata`) > limits.maxMetadataBytes) {
      throw new ValidationError(`${at}.metadata is larger than ${limits.maxMetadataBytes} bytes`);
    }
    return {
      id: messageId,
      role: message.role as MessageRole,
      content: message.content,
      timestamp: optionalDate(message.timestamp, `${at}.timestamp`) ?? messageDefaultTime,
      metadata: metadata as Record<string, unknown> | null,
    };
  });

  const { counters } = planAppend(EMPTY_CONVERSATION, messages, now,
    { maxMessagesPerConversation: limits.maxMessagesPerConversation, sessionGapMs: limits.sessionGapMs });
  const lastMessageAt = counters.lastMessageAt;
  let sessionCount = counters.sessionCount;
  if (record.session_count !== undefined) {
    if (typeof record.session_count !== 'number' || !Number.isInteger(record.session_count) || record.session_count < 1) {
      throw new ValidationError(`${field('session_count')} must be a positive integer`);
    }
    sessionCount = record.session_count;
  }
  const created = createdAt ?? messages[0]?.timestamp ?? now;
  const updatedAt = optionalDate(record.updated_at, field('updated_at'))
    ?? [created, lastMessageAt].filter((t): t is string => t !== null).sort().at(-1)!;
  return {
    id,
    label,
    folder,
    status,
    importanceScore: importance,
    wordCount: counters.wordCount,
    sessionCount,
    createdAt: created,
    updatedAt,
    lastAccessedAt: optionalDate(record.last_accessed, field('last_accessed')) ?? now,
    lastMessageAt,
    messages,
  };
}

function object(raw: unknown, where: string): Record<string, unknown> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new ValidationError(`${where} must be an object`);
  return raw as Record<string, unknown>;
}

function optionalDate(raw: unknown, field: string): string | undefined {
  if (raw === undefined || raw === null) return undefined;
  const parsed = typeof raw === 'string' ? parseTimestamp(raw) : null;
  if (parsed === null) throw new ValidationError(`${field} is not an ISO 8601 date-time`);
  return parsed;
}

function characterCount(text: string, max: number): number {
  if (text.length <= max) return text.length;
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}
