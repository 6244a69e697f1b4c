import { DEFAULT_IMPORTANCE } from '../../domain/conversation.js';
import { EMPTY_CONVERSATION, planAppend } from '../../domain/append-plan.js';
import { checkLabel, checkMessages } from '../../domain/conversation-rules.js';
import { ValidationError } from '../../domain/errors.js';
import { normalizeFolder, ROOT_FOLDER, type FolderLimits } from '../../domain/folder-path.js';
import { isUuid, newId } from '../../domain/ids.js';
import { parseTimestamp } from '../../domain/timestamp.js';
import { validationMessage, type ValidationIssue } from '../../http/error-handler.js';
import { createJsonAjv } from '../../http/request-validation.js';
import type { ImportedConversation } from '../../ports/conversation-archive.js';
import { ImportConversationRecord } from './export.schemas.js';

export interface ImportLimits {
  maxMessageChars: number;
  maxMessagesPerConversation: number;
  maxLabelChars: number;
  maxMetadataBytes: number;
  folder: FolderLimits;
  /** An idle gap longer than this starts a new session (for records without session_count). */
  sessionGapMs: number;
}

/** Names a record and its fields in error messages: "line 3" / "line 3: messages[0].role", or "conversations[2].label". */
export interface RecordPlace {
  record: string;
  field(path: string): string;
}

export const linePlace = (line: number): RecordPlace =>
  ({ record: `line ${line}`, field: (path) => `line ${line}: ${path}` });
export const elementPlace = (prefix: string, index: number): RecordPlace =>
  ({ record: `${prefix}[${index}]`, field: (path) => `${prefix}[${index}].${path}` });

const validateRecord = createJsonAjv().compile<ImportConversationRecord>(ImportConversationRecord);

/**
 * Checks one exported conversation record and turns it into what the store imports: the record
 * schema (create's body plus the fields an export writes), then the rules create applies
 * (label, folder, message limits), so import stores nothing create would refuse.
 */
export function parseConversationRecord(raw: unknown, place: RecordPlace, limits: ImportLimits, now: string): ImportedConversation {
  if (!validateRecord(raw)) throw new ValidationError(recordIssue(place, validateRecord.errors![0] as ValidationIssue));
  const record = raw;
  const field = place.field;

  let id = newId();
  if (record.id !== undefined) {
    if (!isUuid(record.id)) throw new ValidationError(`${field('id')} must be a UUID`);
    id = record.id.toLowerCase();
  }
  const label = checkLabel(record.label, limits.maxLabelChars, field('label'));
  const folder = normalizeFolder(record.folder ?? ROOT_FOLDER, limits.folder, field('folder'));
  const createdAt = optionalDate(record.created_at, field('created_at'));
  const messageDefaultTime = createdAt ?? now;
  const checked = checkMessages(record.messages, limits, field('messages'));
  const messages = record.messages.map(({ id: messageId }, index) => {
    if (messageId != null && !isUuid(messageId)) throw new ValidationError(`${field(`messages[${index}]`)}.id must be a UUID`);
    const message = checked[index]!;
    return {
      id: messageId?.toLowerCase() ?? null,
      role: message.role,
      name: message.name ?? null,
      content: message.content,
      timestamp: message.timestamp ?? messageDefaultTime,
      metadata: message.metadata ?? null,
    };
  });

  const { counters } = planAppend(EMPTY_CONVERSATION, messages, now,
    { maxMessagesPerConversation: limits.maxMessagesPerConversation, sessionGapMs: limits.sessionGapMs });
  const lastMessageAt = counters.lastMessageAt;
  const created = createdAt ?? messages[0]?.timestamp ?? now;
  const updatedAt = optionalDate(record.updated_at, field('updated_at'))
    ?? [created, lastMessageAt].filter((t): t is string => t !== null).sort().at(-1)!;
  return {
    id,
    label,
    folder,
    status: record.status ?? 'active',
    importanceScore: record.importance_score ?? record.importance ?? DEFAULT_IMPORTANCE,
    wordCount: counters.wordCount,
    sessionCount: record.session_count ?? counters.sessionCount,
    createdAt: created,
    updatedAt,
    lastAccessedAt: optionalDate(record.last_accessed, field('last_accessed')) ?? now,
    lastMessageAt,
    messages,
  };
}

/** The schema's complaint, placed: "line 3: messages[0].role must be one of: ..." or "line 2 must be an object". */
function recordIssue(place: RecordPlace, issue: ValidationIssue): string {
  if (issue.instancePath === '' && issue.keyword === 'type') return `${place.record} must be an object`;
  return place.field(validationMessage('record', issue));
}

function optionalDate(raw: string | undefined, field: string): string | undefined {
  if (raw === undefined) return undefined;
  const parsed = parseTimestamp(raw);
  if (parsed === null) throw new ValidationError(`${field} is not an ISO 8601 date-time`);
  return parsed;
}
