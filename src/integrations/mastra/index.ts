/**
 * memsvc for Mastra (`@mastra/core`, 1.x): a processor that gives an agent the relevant memory and stores
 * every exchange, and the memory tools as Mastra tools. A thin layer over the typed client (`memsvc/client`).
 *
 * Why not a MastraMemory or a storage adapter: both are contracts for a store that Mastra runs itself.
 * MastraMemory's abstract methods include threads keyed by ids Mastra makes up, per-resource thread
 * lists filtered by metadata, working memory, cloning threads and deleting single messages; the storage
 * adapter (MastraCompositeStore) adds workflow snapshots, traces and scores. memsvc has none of these, so
 * an adapter would have to fake most of the contract. Processors are Mastra's own extension point for
 * what memsvc does: processInput adds the assembled context as a system message before the model call,
 * processOutputResult stores the exchange after it, streamed or not. Agents keep whatever Mastra memory
 * they have; this sits beside it.
 */
import type { Processor, ProcessInputArgs, ProcessOutputResultArgs } from '@mastra/core/processors';
import { createTool } from '@mastra/core/tools';
import type { AssembleContextRequest, MemsvcClient } from '../../client/index.js';
import { exchangeStore, MEMORY_CONTEXT_HEADING, type StoredMessage } from '../exchange-store.js';
import { memoryToolSpecs, type MemoryToolOptions, type MemoryToolSpec } from '../memory-tools.js';

type MastraMessage = ProcessInputArgs['messages'][number];

export interface MemsvcProcessorOptions {
  client: MemsvcClient;
  /** Label of the conversation the exchanges are stored in; default: the first user message, shortened. */
  label?: string;
  /** Folder of that conversation; default "/". */
  folder?: string;
  /** Store into this existing conversation instead of creating one on the first exchange. */
  conversationId?: string;
  /** Tokens of memory to add (context_budget, 100..200000); default the server's (4000). */
  budget?: number;
  /** More context assembly options (preferred_labels, excluded_folders, ranking, include_metadata). */
  context?: Omit<AssembleContextRequest, 'query' | 'format' | 'max_tokens' | 'context_budget'>;
}

export type MemsvcProcessor = Processor<'memsvc'> & Required<Pick<Processor<'memsvc'>, 'processInput' | 'processOutputResult'>> & {
  /** The conversation the exchanges go to: known once the first exchange is stored (or given). */
  readonly conversationId: string | undefined;
};

/** The tag of that system message in the agent's MessageList. */
export const MEMORY_SYSTEM_TAG = 'memsvc';
const QUESTION_STATE = 'memsvcQuestion';

/**
 * One processor for both `inputProcessors` and `outputProcessors` of an Agent. As an input processor it
 * assembles context for the last user message and adds it as a system message (after the instructions);
 * as an output processor it stores that user message and the answer's text. The first exchange creates
 * the conversation (label, folder); later ones are appended to it. A failed memsvc call throws the
 * client's MemsvcError, which the agent's generate or stream call reports.
 */
export { MEMORY_CONTEXT_HEADING } from '../exchange-store.js';

export function memsvcProcessor(options: MemsvcProcessorOptions): MemsvcProcessor {
  const { client } = options;
  const exchanges = exchangeStore(options);
  const store = (messages: StoredMessage[]) => exchanges.store(messages);

  return {
    id: 'memsvc',
    name: 'memsvc memory',
    get conversationId() {
      return exchanges.conversationId;
    },
    async processInput({ messages, messageList, state }: ProcessInputArgs) {
      const question = textOf(messages.findLast((message) => message.role === 'user'));
      state[QUESTION_STATE] = question;
      if (!question) return messageList;
      const assembled = await client.assembleContext({
        ...options.context,
        query: question,
        format: 'text',
        ...(options.budget ? { context_budget: options.budget } : {}),
      });
      if (!Array.isArray(assembled) && assembled.message_count > 0) {
        messageList.addSystem(`${MEMORY_CONTEXT_HEADING}\n\n${assembled.context}`, MEMORY_SYSTEM_TAG);
      }
      return messageList;
    },
    async processOutputResult({ messageList, state, result }: ProcessOutputResultArgs) {
      const question = typeof state[QUESTION_STATE] === 'string' ? state[QUESTION_STATE] : '';
      await store([
        ...(question ? [{ role: 'user' as const, content: question }] : []),
        ...(result.text.trim() ? [{ role: 'assistant' as const, content: result.text }] : []),
      ]);
      return messageList;
    },
  };
}

/** memory_search, memory_assemble_context and memory_store as Mastra tools, for an Agent's `tools`. */
export function memsvcTools(client: MemsvcClient, options: MemoryToolOptions = {}) {
  const specs = memoryToolSpecs(client, options);
  return {
    memory_search: asTool(specs.search),
    memory_assemble_context: asTool(specs.context),
    memory_store: asTool(specs.store),
  };
}

function asTool<Input>(spec: MemoryToolSpec<Input>) {
  // A thrown MemsvcError becomes Mastra's tool error result, which the model sees with the server's message.
  return createTool({
    id: spec.name,
    description: spec.description,
    inputSchema: spec.inputSchema as Parameters<typeof createTool>[0]['inputSchema'] & object,
    execute: async (input: unknown) => spec.execute(input as Input),
  });
}

function textOf(message: MastraMessage | undefined): string {
  if (!message) return '';
  const parts = message.content.parts.flatMap((part) => (part.type === 'text' ? [part.text] : []));
  return (parts.length > 0 ? parts.join('\n') : message.content.content ?? '').trim();
}

