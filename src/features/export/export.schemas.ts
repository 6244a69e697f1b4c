import { Type } from 'typebox';
import { StringEnum } from '../../http/schema-types.js';

export const ExportBody = Type.Object({
  format: Type.Optional(StringEnum(['json', 'jsonl', 'markdown'], { default: 'json' })),
  start_date: Type.Optional(Type.String({
    description: 'ISO 8601 date or date-time: conversations updated at or after it (a date means its start).' })),
  end_date: Type.Optional(Type.String({
    description: 'ISO 8601 date or date-time: conversations created at or before it (a date means its end).' })),
  folder: Type.Optional(Type.String({ description: 'Only this folder and its subfolders.' })),
}, { additionalProperties: false });

export const ImportQuery = Type.Object({
  on_conflict: Type.Optional(StringEnum(['skip', 'replace', 'new_id'], {
    default: 'skip',
    description: 'When a conversation id exists already: skip the record, replace the stored conversation, or import under a new id.',
  })),
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
