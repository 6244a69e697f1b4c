import type { Static } from 'typebox';
import { ExportConversationBody, ExportConversationResponse } from '../../features/export/export.schemas.js';
import { defineTool } from '../tool-definition.js';

type ExportedConversation = Static<typeof ExportConversationResponse>;

export const exportTool = defineTool({
  name: 'memory_export',
  description: 'Export one conversation with its messages as JSON data or Markdown text.',
  inputSchema: ExportConversationBody,
  outputSchema: ExportConversationResponse,
  bind: ({ conversations }) => async (input) => {
    const c = await conversations.get(input.conversation_id);
    const includeMetadata = input.include_metadata ?? true;
    const format = input.format ?? 'json';
    const messages = (await conversations.allMessages(c.id)).map((m) => ({
      role: m.role, name: m.name, content: m.content, timestamp: m.timestamp,
      ...(includeMetadata ? { metadata: m.metadata } : {}),
    }));
    const conversation = {
      id: c.id, label: c.label, folder: c.folder, status: c.status, importance_score: c.importanceScore,
      word_count: c.wordCount, session_count: c.sessionCount, created_at: c.createdAt, updated_at: c.updatedAt,
    };
    return {
      conversation, messages, format, include_metadata: includeMetadata,
      ...(format === 'markdown' ? { markdown: toMarkdown({ conversation, messages }, includeMetadata) } : {}),
    };
  },
});

function toMarkdown({ conversation, messages }: Pick<ExportedConversation, 'conversation' | 'messages'>, includeMetadata: boolean): string {
  const lines = [`# ${conversation.label}`, ''];
  if (includeMetadata) {
    lines.push(`- folder: ${conversation.folder}`, `- status: ${conversation.status}`,
      `- importance: ${conversation.importance_score}`, `- created: ${conversation.created_at}`, '');
  }
  for (const message of messages) {
    const author = message.name !== null ? ` · ${message.name}` : '';
    lines.push(`## ${message.role}${author}${includeMetadata ? ` (${message.timestamp})` : ''}`, '', message.content, '');
  }
  return lines.join('\n');
}
