import { BaseListChatMessageHistory } from '@langchain/core/chat_history';
import { Document } from '@langchain/core/documents';
import {
  AIMessage, HumanMessage, SystemMessage, mapChatMessagesToStoredMessages, mapStoredMessagesToChatMessages,
  type BaseMessage, type StoredMessage,
} from '@langchain/core/messages';
import { BaseRetriever, type BaseRetrieverInput } from '@langchain/core/retrievers';
import type { AppendMessagesRequest, CreateConversationRequest, MemsvcClient, Message, QueryRequest } from '../../client/index.js';
import { allMessages, rewriteConversation } from '../conversation-rewrite.js';

/**
 * memsvc for LangChain.js (`@langchain/core`, major 1): a chat message history kept in a memsvc
 * conversation, and a retriever over memsvc's hybrid search. Both are a thin layer over the typed
 * client (`memsvc/client`); a failed call throws the client's MemsvcError (an Error with status,
 * code and the server's message), which LangChain passes on to whoever invoked the chain.
 */

type MemsvcMessage = AppendMessagesRequest['messages'][number];

/** Where the adapter keeps LangChain's own form of a message, so that what it reads back is what was added. */
const LANGCHAIN_METADATA_KEY = 'langchain';
const ROLES: Record<string, MemsvcMessage['role']> = { human: 'user', ai: 'assistant', system: 'system' };

/**
 * A message history (for RunnableWithMessageHistory, agents, memory classes) kept in one memsvc
 * conversation, named by its id. Messages are stored with memsvc roles (human: user, ai: assistant,
 * system: system; tool and other messages as assistant) and their text, so they are searchable like
 * any other, and LangChain's serialized form rides along in the message metadata: getMessages returns
 * the messages as they were added, tool calls included.
 */
export class MemsvcChatMessageHistory extends BaseListChatMessageHistory {
  lc_namespace = ['langchain', 'stores', 'message', 'memsvc'];
  readonly conversationId: string;
  readonly #client: MemsvcClient;

  constructor(fields: { client: MemsvcClient; conversationId: string }) {
    super({ conversationId: fields.conversationId });
    this.#client = fields.client;
    this.conversationId = fields.conversationId;
  }

  /** A history in a new, empty conversation. */
  static async create(client: MemsvcClient, conversation: Omit<CreateConversationRequest, 'messages'>): Promise<MemsvcChatMessageHistory> {
    const created = await client.conversations.create({ ...conversation, messages: [] });
    return new MemsvcChatMessageHistory({ client, conversationId: created.id });
  }

  async getMessages(): Promise<BaseMessage[]> {
    return (await allMessages(this.#client, this.conversationId)).map(toLangChainMessage);
  }

  async addMessage(message: BaseMessage): Promise<void> {
    await this.addMessages([message]);
  }

  /** One request for all of them. */
  override async addMessages(messages: BaseMessage[]): Promise<void> {
    if (messages.length === 0) return;
    await this.#client.conversations.append(this.conversationId, messages.map(toMemsvcMessage));
  }

  /** Empties the conversation; it keeps its id, label and folder. */
  override async clear(): Promise<void> {
    await rewriteConversation(this.#client, this.conversationId, () => []);
  }
}

export interface MemsvcRetrieverInput extends BaseRetrieverInput {
  client: MemsvcClient;
  /** How many documents; default 4. */
  k?: number;
  /** hybrid (default: full-text and vectors, fused), semantic or keyword. */
  mode?: QueryRequest['mode'];
  /** Search filters: folder (and its subfolders), label, importance, dates, archived. */
  filters?: NonNullable<QueryRequest['filters']>;
}

/** What each Document's metadata holds: where the message comes from, for citations. */
export interface MemsvcDocumentMetadata {
  conversation_id: string;
  message_id: string;
  label: string;
  folder: string;
  role: string;
  score: number;
  timestamp: string;
}

/** A retriever over memsvc's search: one Document per message hit, best first, with its source in the metadata. */
export class MemsvcRetriever extends BaseRetriever<MemsvcDocumentMetadata> {
  lc_namespace = ['langchain', 'retrievers', 'memsvc'];
  readonly k: number;
  readonly mode: QueryRequest['mode'];
  readonly filters: MemsvcRetrieverInput['filters'];
  readonly #client: MemsvcClient;

  static override lc_name() {
    return 'MemsvcRetriever';
  }

  constructor({ client, k = 4, mode = 'hybrid', filters, ...fields }: MemsvcRetrieverInput) {
    super(fields);
    this.#client = client;
    this.k = k;
    this.mode = mode;
    this.filters = filters;
  }

  override async _getRelevantDocuments(query: string): Promise<Array<Document<MemsvcDocumentMetadata>>> {
    const found = await this.#client.search.query({ query, limit: this.k, mode: this.mode, ...(this.filters ? { filters: this.filters } : {}) });
    return found.results.map((hit) => new Document<MemsvcDocumentMetadata>({
      id: hit.message_id,
      pageContent: hit.content,
      metadata: {
        conversation_id: hit.conversation_id, message_id: hit.message_id, label: hit.label, folder: hit.folder,
        role: hit.metadata.role, score: hit.score, timestamp: hit.timestamp,
      },
    }));
  }
}

function toMemsvcMessage(message: BaseMessage): MemsvcMessage {
  const [stored] = mapChatMessagesToStoredMessages([message]) as [StoredMessage];
  const text = message.text.trim();
  const toolCalls = 'tool_calls' in message && Array.isArray(message.tool_calls) ? message.tool_calls as Array<{ name: string }> : [];
  return {
    role: ROLES[stored.type] ?? 'assistant',
    // memsvc stores text; a message without any (a tool call) is described, and kept whole in the metadata.
    content: text || (toolCalls.length > 0 ? `[tool call: ${toolCalls.map((call) => call.name).join(', ')}]` : `[${stored.type} message]`),
    metadata: { [LANGCHAIN_METADATA_KEY]: stored as unknown as Record<string, unknown> },
  };
}

function toLangChainMessage(message: Message): BaseMessage {
  const stored = message.metadata?.[LANGCHAIN_METADATA_KEY] as StoredMessage | undefined;
  if (stored && typeof stored.type === 'string' && typeof stored.data === 'object') return mapStoredMessagesToChatMessages([stored])[0]!;
  // Stored by something else (the API, the web UI, another adapter): its role and text.
  const fields = { content: message.content, id: message.id };
  return message.role === 'user' ? new HumanMessage(fields) : message.role === 'system' ? new SystemMessage(fields) : new AIMessage(fields);
}
