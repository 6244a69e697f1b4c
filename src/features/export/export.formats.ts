import type { Conversation, Message } from '../../domain/conversation.js';

export type ExportFormat = 'json' | 'jsonl' | 'markdown';

export const EXPORT_FORMAT_VERSION = 1;

export const FORMAT_INFO: Readonly<Record<ExportFormat, { contentType: string; extension: string }>> = {
  json: { contentType: 'application/json; charset=utf-8', extension: 'json' },
  jsonl: { contentType: 'application/x-ndjson; charset=utf-8', extension: 'jsonl' },
  markdown: { contentType: 'text/markdown; charset=utf-8', extension: 'md' },
};

/** A conversation record of the json and jsonl exports (also what import reads back). */
export const conversationRecord = (c: Conversation) => ({
  id: c.id,
  label: c.label,
  folder: c.folder,
  status: c.status,
  importance_score: c.importanceScore,
  word_count: c.wordCount,
  message_count: c.messageCount,
  session_count: c.sessionCount,
  created_at: c.createdAt,
  updated_at: c.updatedAt,
  last_accessed: c.lastAccessedAt,
});

/** Without a name, `name` is left out (import, like create, reads an absent or null name as none). */
export const messageRecord = (m: Message) => ({
  id: m.id,
  role: m.role,
  ...(m.name !== null ? { name: m.name } : {}),
  content: m.content,
  timestamp: m.timestamp,
  metadata: m.metadata,
});

/**
 * Writes one export piece by piece, so a conversation of any size streams
 * without being held as one string: open(), then per conversation begin(),
 * message() for each message, end(), then close().
 */
export interface ExportWriter {
  open(): string;
  begin(conversation: Conversation, index: number): string;
  message(message: Message, index: number): string;
  end(): string;
  close(count: number): string;
}

export function exportWriter(format: ExportFormat, header: { exportedAt: string; filter: Record<string, string> }): ExportWriter {
  switch (format) {
    case 'json':
      return {
        open: () => `{"format":"memsvc-export","version":${EXPORT_FORMAT_VERSION},"exported_at":${JSON.stringify(header.exportedAt)},` +
          `"filter":${JSON.stringify(header.filter)},"conversations":[`,
        begin: (c, index) => `${index > 0 ? ',' : ''}\n${openRecord(c)}`,
        message: (m, index) => `${index > 0 ? ',' : ''}${JSON.stringify(messageRecord(m))}`,
        end: () => ']}',
        close: (count) => `\n],"conversation_count":${count}}\n`,
      };
    case 'jsonl':
      return {
        open: () => '',
        begin: (c) => openRecord(c),
        message: (m, index) => `${index > 0 ? ',' : ''}${JSON.stringify(messageRecord(m))}`,
        end: () => ']}\n',
        close: () => '',
      };
    case 'markdown':
      return {
        open: () => `# memsvc export\n\nExported ${header.exportedAt}` +
          `${Object.keys(header.filter).length > 0 ? ` (filter: ${Object.entries(header.filter).map(([k, v]) => `${k} ${v}`).join(', ')})` : ''}.\n`,
        begin: (c) => `\n---\n\n## ${oneLine(c.label)}\n\n` +
          `- id: \`${c.id}\`\n- folder: \`${c.folder}\`\n- status: ${c.status}\n- importance: ${c.importanceScore}\n` +
          `- created: ${c.createdAt}\n- updated: ${c.updatedAt}\n- messages: ${c.messageCount}\n`,
        message: (m) => `\n### ${m.role}${m.name !== null ? ` · ${m.name}` : ''} · ${m.timestamp}\n\n${m.content}\n`,
        end: () => '',
        close: (count) => `\n---\n\n${count} conversation${count === 1 ? '' : 's'} exported.\n`,
      };
  }
}

/** The record without its closing, up to the opening of its messages array. */
const openRecord = (c: Conversation) => `${JSON.stringify(conversationRecord(c)).slice(0, -1)},"messages":[`;

const oneLine = (text: string) => text.replace(/\s+/gu, ' ');
