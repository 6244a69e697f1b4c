import {
  fromCreateConversationBody,
  toAppendMessagesResponse,
  toConversationMetadataResponse,
  toConversationStatsResponse,
  toCreateConversationResponse,
} from '../../features/conversations/conversations.mappers.js';
import {
  AppendMessagesResponse,
  AppendToConversationBody,
  ConversationIdBody,
  ConversationMetadataResponse,
  ConversationStatsQuery,
  ConversationStatsResponse,
  CreateConversationBody,
  CreateConversationResponse,
  DeleteConversationResponse,
  UpdateConversationBody,
  UpdateConversationResponse,
} from '../../features/conversations/conversations.schemas.js';
import { defineTool } from '../tool-definition.js';

export const storeTool = defineTool({
  name: 'memory_store',
  description: 'Store a conversation (label, folder, messages) in long-term memory.',
  inputSchema: CreateConversationBody,
  outputSchema: CreateConversationResponse,
  bind: ({ conversations }) => async (input) =>
    toCreateConversationResponse(await conversations.create(fromCreateConversationBody(input))),
});

export const updateTool = defineTool({
  name: 'memory_update',
  description: 'Change the label, folder, status (active/archived) or importance of a conversation.',
  inputSchema: UpdateConversationBody,
  outputSchema: UpdateConversationResponse,
  bind: ({ conversations }) => async (input) => {
    const updated = await conversations.update(input.conversation_id, {
      label: input.label, folder: input.folder, status: input.status, importanceScore: input.importance_score,
    });
    const fields = updated.map((field) => (field === 'importanceScore' ? 'importance_score' : field));
    return {
      conversation_id: input.conversation_id,
      updated_fields: fields,
      message: fields.length > 0 ? `Updated ${fields.join(', ')}` : 'Nothing to update',
    };
  },
});

export const getContextTool = defineTool({
  name: 'memory_get_context',
  description: 'Metadata of one conversation: label, status, folder, importance, counts, timestamps.',
  inputSchema: ConversationIdBody,
  outputSchema: ConversationMetadataResponse,
  bind: ({ conversations }) => async (input) => toConversationMetadataResponse(await conversations.get(input.conversation_id)),
});

export const statsTool = defineTool({
  name: 'memory_stats',
  description: 'Totals and average importance, overall or for one folder subtree or label (not both).',
  inputSchema: ConversationStatsQuery,
  outputSchema: ConversationStatsResponse,
  bind: ({ conversations }) => async (input) => toConversationStatsResponse(await conversations.stats(input)),
});

export const appendTool = defineTool({
  name: 'memory_append',
  description: 'Add messages to the end of an existing conversation (e.g. the latest exchange).',
  inputSchema: AppendToConversationBody,
  outputSchema: AppendMessagesResponse,
  bind: ({ conversations }) => async (input) =>
    toAppendMessagesResponse(await conversations.appendMessages(input.conversation_id, input.messages)),
});

export const deleteTool = defineTool({
  name: 'memory_delete',
  description: 'Delete a conversation with all its messages, for good. Prefer memory_update with status "archived" to hide it.',
  inputSchema: ConversationIdBody,
  outputSchema: DeleteConversationResponse,
  bind: ({ conversations }) => async (input) => {
    await conversations.delete(input.conversation_id);
    return { conversation_id: input.conversation_id, deleted: true };
  },
});

