import type { AppendMessagesRequest, MemsvcClient, QueryRequest } from '../client/index.js';

/**
 * The memory tools every framework adapter offers (search, context, store), framework-free: a name,
 * a description and a JSON Schema for the model, and an `execute` that is one call of the typed client.
 * Each adapter wraps these in its framework's own tool type; none of them talks HTTP itself.
 * The names are those of memsvc's MCP tools, so a model sees the same memory through either door.
 */

export interface MemoryToolOptions {
  /** Where memory_store files the conversations it creates; default "/". */
  folder?: string;
  /** The label memory_store gives a new conversation when the model names none; default "memory". */
  label?: string;
  /** Tokens of context memory_assemble_context returns at most (context_budget); default the server's (4000). */
  budget?: number;
  /** memory_search's mode; default hybrid (full-text and vectors, fused). */
  mode?: QueryRequest['mode'];
}

export interface SearchInput { query: string; limit?: number; folder?: string }
export interface ContextInput { query: string }
export interface StoreInput {
  messages: Array<{ role: 'user' | 'assistant'; content: string }>;
  label?: string;
  conversation_id?: string;
}

export interface MemoryToolSpec<Input> {
  name: string;
  description: string;
  /** A JSON Schema (draft 7) object schema of the input. */
  inputSchema: Record<string, unknown> & { type: 'object'; properties: Record<string, unknown>; required: string[] };
  execute(input: Input): Promise<unknown>;
}

export interface MemoryToolSpecs {
  search: MemoryToolSpec<SearchInput>;
  context: MemoryToolSpec<ContextInput>;
  store: MemoryToolSpec<StoreInput>;
}

export const DEFAULT_TOOL_LABEL = 'memory';
const MAX_SEARCH_LIMIT = 50;

export function memoryToolSpecs(client: MemsvcClient, options: MemoryToolOptions = {}): MemoryToolSpecs {
  return {
    search: {
      name: 'memory_search',
      description: 'Search long-term memory (earlier conversations) by meaning and words. Returns the best matching '
        + 'messages, each with its conversation label, folder, time and a relevance score from 0 to 1.',
      inputSchema: {
        type: 'object',
        properties: {
          query: { type: 'string', minLength: 1, description: 'What to look for, in words' },
          limit: { type: 'integer', minimum: 1, maximum: MAX_SEARCH_LIMIT, description: 'How many messages at most; default 10' },
          folder: { type: 'string', description: 'Only conversations in this folder and its subfolders, e.g. /work' },
        },
        required: ['query'],
        additionalProperties: false,
      },
      async execute({ query, limit, folder }) {
        const found = await client.search.query({
          query, ...(limit ? { limit } : {}), ...(options.mode ? { mode: options.mode } : {}), ...(folder ? { filters: { folder } } : {}),
        });
        return {
          results: found.results.map((hit) => ({
            content: hit.content, role: hit.metadata.role, label: hit.label, folder: hit.folder, timestamp: hit.timestamp,
            score: hit.score, conversation_id: hit.conversation_id, message_id: hit.message_id,
          })),
        };
      },
    },
    context: {
      name: 'memory_assemble_context',
      description: 'Relevant past messages for a question or task, ranked and packed into a token budget, '
        + 'as prompt-ready text with its sources.',
      inputSchema: {
        type: 'object',
        properties: { query: { type: 'string', minLength: 1, description: 'The question or task the context is for' } },
        required: ['query'],
        additionalProperties: false,
      },
      async execute({ query }) {
        const assembled = await client.assembleContext({
          query, format: 'text', ...(options.budget ? { context_budget: options.budget } : {}),
        });
        // format 'text' always answers with the text variant.
        return assembled as Exclude<typeof assembled, unknown[]>;
      },
    },
    store: {
      name: 'memory_store',
      description: 'Save messages to long-term memory. Without conversation_id this starts a new conversation '
        + '(returning its conversation_id); with one, the messages are added to the end of that conversation.',
      inputSchema: {
        type: 'object',
        properties: {
          messages: {
            type: 'array',
            minItems: 1,
            items: {
              type: 'object',
              properties: {
                role: { type: 'string', enum: ['user', 'assistant'] },
                content: { type: 'string', minLength: 1 },
              },
              required: ['role', 'content'],
              additionalProperties: false,
            },
          },
          label: { type: 'string', description: 'A short title for a new conversation' },
          conversation_id: { type: 'string', description: 'Add to this conversation (from an earlier memory_store)' },
        },
        required: ['messages'],
        additionalProperties: false,
      },
      async execute({ messages, label, conversation_id: conversationId }) {
        const stored: AppendMessagesRequest['messages'] = messages.map(({ role, content }) => ({ role, content }));
        if (conversationId) {
          await client.conversations.append(conversationId, stored);
          return { conversation_id: conversationId, stored: stored.length };
        }
        const created = await client.conversations.create({
          label: label?.trim() || options.label || DEFAULT_TOOL_LABEL,
          ...(options.folder ? { folder: options.folder } : {}),
          messages: stored,
        });
        return { conversation_id: created.id, stored: stored.length };
      },
    },
  };
}
