import { Type, type Static } from 'typebox';
import { StringEnum } from '../../http/schema-types.js';
import { AuthorName, CreateConversationBody, MessageInput, Metadata, Role, Timestamp } from '../conversations/conversations.schemas.js';
import { DEFAULT_IMPORT_SEQUENCE } from './import-sequence.js';

export const ExportBody = Type.Object({
  format: Type.Optional(StringEnum(['json', 'jsonl', 'markdown'], { default: 'json' })),
  start_date: Type.Optional(Type.String({
    description: 'ISO 8601 date or date-time: conversations updated at or after it (a date means its start).' })),
  end_date: Type.Optional(Type.String({
    description: 'ISO 8601 date or date-time: conversations created at or before it (a date means its end).' })),
  folder: Type.Optional(Type.String({ description: 'Only this folder and its subfolders.' })),
}, { additionalProperties: false });

/** The export, streamed (the handler sends a stream; the schema only documents it). */
export const ExportStream = Type.Unsafe<unknown>({ type: 'string',
  description: 'The export, streamed as an attachment (Content-Disposition names the file).' });
/** A sequenced import batch's name (ImportQuery's batch and after). */
export const BATCH_NAME = /^[A-Za-z0-9_.-]{1,100}$/;
const BatchName = (description: string) => Type.String({ pattern: BATCH_NAME.source, description });

export const ImportQuery = Type.Object({
  on_conflict: Type.Optional(StringEnum(['skip', 'replace', 'new_id'], {
    default: 'skip',
    description: 'When a conversation id exists already: skip the record, replace the stored conversation, or import under a new id.',
  })),
  batch: Type.Optional(BatchName('This request\'s name in a sequenced import (letters, digits, "_", "-", "."; at most 100). ' +
    'A name once stored is refused again (409 CONFLICT); a name whose attempt stored nothing may be sent again.')),
  after: Type.Optional(BatchName('The batch this one follows: it is stored only once that batch was stored, and refused with ' +
    `409 OUT_OF_SEQUENCE (nothing stored) if that batch was not stored or does not arrive within ${DEFAULT_IMPORT_SEQUENCE.unknownWaitMs / 1000} s. ` +
    'Lets a client send the next batch while one is being stored.')),
}, { additionalProperties: false });

export const ImportBody = Type.Unsafe<unknown>({
  description: 'A json export (application/json: {"conversations": [...]} or an array of records) or a jsonl export ' +
    '(application/x-ndjson: one conversation record per line).',
});

export const ImportResponse = Type.Object({
  imported: Type.Integer({ description: 'Conversations stored (including replaced and renamed ones)' }),
  replaced: Type.Integer(),
  skipped: Type.Integer(),
  messages: Type.Integer({ description: 'Messages stored' }),
  renamed: Type.Array(Type.Object({ from: Type.String(), to: Type.String() }),
    { description: 'Conversations stored under a new id (on_conflict=new_id)' }),
});

/** One conversation with its messages (memory_export). */
export const ExportConversationBody = Type.Object({
  conversation_id: Type.String({ description: 'UUID of the conversation' }),
  format: Type.Optional(StringEnum(['json', 'markdown'], { default: 'json' })),
  include_metadata: Type.Optional(Type.Boolean({ default: true, description: 'Message metadata, and in markdown the header' })),
}, { additionalProperties: false });

export const ExportConversationResponse = Type.Object({
  conversation: Type.Object({
    id: Type.String(),
    label: Type.String(),
    folder: Type.String(),
    status: Type.String(),
    importance_score: Type.Integer(),
    word_count: Type.Integer(),
    session_count: Type.Integer(),
    created_at: Timestamp,
    updated_at: Timestamp,
  }),
  messages: Type.Array(Type.Object({
    role: Role,
    name: AuthorName,
    content: Type.String(),
    timestamp: Timestamp,
    metadata: Type.Optional(Metadata),
  })),
  format: StringEnum(['json', 'markdown']),
  include_metadata: Type.Boolean(),
  markdown: Type.Optional(Type.String({ description: 'format markdown: the conversation as one Markdown document' })),
});

const ExportedTimestamp = Type.String({ description: 'ISO 8601 date-time' });

/** A message of an export record: create's message plus the id it was stored under. */
export const ImportMessageRecord = Type.Object({
  ...MessageInput.properties,
  id: Type.Optional(Type.Union([Type.String({ description: 'UUID; kept unless taken (then replaced)' }), Type.Null()])),
}, { additionalProperties: false });

/**
 * One conversation record of a json or jsonl export, as import reads it: create's body (the same
 * field schemas) plus what an export writes beside it. word_count and message_count are recomputed.
 */
export const ImportConversationRecord = Type.Object({
  ...CreateConversationBody.properties,
  messages: Type.Array(ImportMessageRecord),
  id: Type.Optional(Type.String({ description: 'UUID; a new one when absent' })),
  status: Type.Optional(StringEnum(['active', 'archived'])),
  session_count: Type.Optional(Type.Integer({ minimum: 1, description: 'Default: counted from the message timestamps' })),
  word_count: Type.Optional(Type.Integer({ minimum: 0, description: 'Ignored: recomputed' })),
  message_count: Type.Optional(Type.Integer({ minimum: 0, description: 'Ignored: recomputed' })),
  created_at: Type.Optional(ExportedTimestamp),
  updated_at: Type.Optional(ExportedTimestamp),
  last_accessed: Type.Optional(ExportedTimestamp),
}, { additionalProperties: false });
export type ImportConversationRecord = Static<typeof ImportConversationRecord>;
