import { assistant, system, tool, user, type AgentInputItem, type FunctionTool, type Session } from '@openai/agents';
import type { AppendMessagesRequest, CreateConversationRequest, MemsvcClient, Message } from '../../client/index.js';
import { allMessages, rewriteConversation } from '../conversation-rewrite.js';
import { memoryToolSpecs, type MemoryToolOptions, type MemoryToolSpec } from '../memory-tools.js';

/**
 * memsvc for the OpenAI Agents SDK (`@openai/agents`, 0.20): the memory tools as function tools, and a
 * Session that keeps an agent's history in a memsvc conversation. A thin layer over the typed client
 * (`memsvc/client`). A tool's failure reaches the model as the SDK's tool error result with the server's
 * message; a session's failure rejects the run with the client's MemsvcError.
 */

type MemsvcMessage = AppendMessagesRequest['messages'][number];

/** Where the session keeps the SDK's own item, so that getItems returns exactly what addItems was given. */
const ITEM_METADATA_KEY = 'openai_agents_item';

/** memory_search, memory_assemble_context and memory_store as function tools, for an Agent's `tools`. */
export function memsvcTools(client: MemsvcClient, options: MemoryToolOptions = {}): FunctionTool[] {
  const specs = memoryToolSpecs(client, options);
  return [asTool(specs.search), asTool(specs.context), asTool(specs.store)];
}

function asTool<Input>(spec: MemoryToolSpec<Input>): FunctionTool {
  return tool({
    name: spec.name,
    description: spec.description,
    // Optional parameters are optional here, which the SDK's strict mode would not allow.
    parameters: spec.inputSchema as never,
    strict: false,
    execute: (input) => spec.execute(input as Input),
    // The SDK's default error result says only that the tool failed; the model is better off with the reason.
    errorFunction: (_context, error) => `${spec.name} failed: ${error instanceof Error ? error.message : String(error)}`,
  }) as FunctionTool;
}

export interface MemsvcSessionOptions {
  client: MemsvcClient;
  /** Continue this conversation; without it one is created (label, folder) when the first items are added. */
  conversationId?: string;
  /** Label of the conversation the session creates; default: the first user message, shortened. */
  label?: string;
  /** Folder of the conversation the session creates; default "/". */
  folder?: string;
}

const LABEL_CHARS = 80;

/**
 * An agent session (`run(agent, input, { session })`) kept in one memsvc conversation. Each item is one
 * message: user, assistant and system messages with their role and text; tool calls, tool results and
 * other items as assistant messages that describe them. The item itself rides along in the message's
 * metadata, so getItems returns the items as they were added. popItem and clearSession rewrite the
 * conversation (memsvc has no call that deletes single messages); the conversation keeps its id.
 */
export class MemsvcSession implements Session {
  readonly #client: MemsvcClient;
  readonly #options: MemsvcSessionOptions;
  #conversationId: string | undefined;
  #creating: Promise<string> | undefined;

  constructor(options: MemsvcSessionOptions) {
    this.#client = options.client;
    this.#options = options;
    this.#conversationId = options.conversationId;
  }

  /** The conversation id; a session that has none yet creates its (empty) conversation. */
  async getSessionId(): Promise<string> {
    return this.#conversationId ?? this.#create([]);
  }

  async getItems(limit?: number): Promise<AgentInputItem[]> {
    if (this.#conversationId === undefined && this.#creating === undefined) return [];
    const items = (await allMessages(this.#client, await this.getSessionId())).map(toItem);
    return limit === undefined ? items : limit <= 0 ? [] : items.slice(-limit);
  }

  async addItems(items: AgentInputItem[]): Promise<void> {
    if (items.length === 0) return;
    const messages = items.map(toMessage);
    if (this.#conversationId === undefined && this.#creating === undefined) {
      await this.#create(messages);
      return;
    }
    await this.#client.conversations.append(await this.getSessionId(), messages);
  }

  async popItem(): Promise<AgentInputItem | undefined> {
    if (this.#conversationId === undefined && this.#creating === undefined) return undefined;
    let popped: Message | undefined;
    await rewriteConversation(this.#client, await this.getSessionId(), (messages) => {
      popped = messages.at(-1);
      return messages.slice(0, -1);
    });
    return popped && toItem(popped);
  }

  async clearSession(): Promise<void> {
    if (this.#conversationId === undefined && this.#creating === undefined) return;
    await rewriteConversation(this.#client, await this.getSessionId(), () => []);
  }

  #create(messages: MemsvcMessage[]): Promise<string> {
    if (this.#creating) return this.#creating;
    const body: CreateConversationRequest = {
      label: this.#options.label ?? labelFrom(messages),
      ...(this.#options.folder ? { folder: this.#options.folder } : {}),
      messages,
    };
    this.#creating = this.#client.conversations.create(body).then(
      (created) => (this.#conversationId = created.id),
      (error: unknown) => {
        // A failed create leaves nothing behind: the next call tries again.
        this.#creating = undefined;
        throw error;
      },
    );
    return this.#creating;
  }
}

function toMessage(item: AgentInputItem): MemsvcMessage {
  const metadata = { [ITEM_METADATA_KEY]: item as unknown as Record<string, unknown> };
  if ('role' in item && (item.type === undefined || item.type === 'message')) {
    const text = textOf(item.content).trim();
    return { role: item.role, content: text || `[${item.role} message]`, metadata };
  }
  return { role: 'assistant', content: describe(item), metadata };
}

function toItem(message: Message): AgentInputItem {
  const item = message.metadata?.[ITEM_METADATA_KEY] as AgentInputItem | undefined;
  if (item && typeof item === 'object') return item;
  // Stored by something else (the API, the web UI, another adapter): its role and text.
  return message.role === 'user' ? user(message.content) : message.role === 'system' ? system(message.content) : assistant(message.content);
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.flatMap((part: { type?: string; text?: unknown; refusal?: unknown }) =>
    (typeof part.text === 'string' ? [part.text] : typeof part.refusal === 'string' ? [part.refusal] : [])).join('\n');
}

/** A line of text for an item that is not a message, so that the stored conversation reads sensibly. */
function describe(item: AgentInputItem): string {
  switch (item.type) {
    case 'function_call':
      return `[tool call ${item.name}] ${item.arguments}`;
    case 'function_call_result': {
      const output = typeof item.output === 'string' ? item.output : textOf([item.output].flat()) || JSON.stringify(item.output);
      return `[tool result ${item.name}] ${output}`;
    }
    default:
      return `[${item.type ?? 'item'}]`;
  }
}

function labelFrom(messages: MemsvcMessage[]): string {
  const first = (messages.find((message) => message.role === 'user')?.content ?? 'agent session').trim().split('\n')[0]!;
  return first.length > LABEL_CHARS ? `${first.slice(0, LABEL_CHARS - 1)}…` : first;
}
