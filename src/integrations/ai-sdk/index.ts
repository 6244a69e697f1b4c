import { jsonSchema, tool, type JSONSchema7, type LanguageModelMiddleware, type Tool } from 'ai';
import type { AssembleContextRequest, MemsvcClient } from '../../client/index.js';
import { exchangeStore, MEMORY_CONTEXT_HEADING, type StoredMessage } from '../exchange-store.js';
import { memoryToolSpecs, type ContextInput, type MemoryToolOptions, type MemoryToolSpec, type SearchInput, type StoreInput } from '../memory-tools.js';

/**
 * memsvc for the Vercel AI SDK (`ai`, major 7): a language model middleware that gives every call the
 * relevant memory and stores every exchange, and the memory tools as AI SDK tools. Both are a thin
 * layer over the typed client (`memsvc/client`); a failed memsvc call reaches the SDK as the client's
 * MemsvcError (an Error with status, code and the server's message).
 */

type Middleware = Required<LanguageModelMiddleware>;
type CallOptions = Parameters<Middleware['transformParams']>[0]['params'];
type Prompt = CallOptions['prompt'];
type PromptMessage = Prompt[number];
type GenerateResult = Awaited<ReturnType<Middleware['wrapGenerate']>>;
type StreamResult = Awaited<ReturnType<Middleware['wrapStream']>>;
type StreamPart = StreamResult['stream'] extends ReadableStream<infer Part> ? Part : never;

export interface MemsvcMemoryOptions {
  client: MemsvcClient;
  /** Label of the conversation the exchanges are stored in; default: the first user message, shortened. */
  label?: string;
  /** Folder of that conversation; default "/". */
  folder?: string;
  /** Store into this existing conversation instead of creating one on the first call. */
  conversationId?: string;
  /** Tokens of memory to add to a call (context_budget, 100..200000); default the server's (4000). */
  budget?: number;
  /** More context assembly options (preferred_labels, excluded_folders, ranking, include_metadata). */
  context?: Omit<AssembleContextRequest, 'query' | 'format' | 'max_tokens' | 'context_budget'>;
}

export type MemsvcMemoryMiddleware = LanguageModelMiddleware & {
  /** The conversation the exchanges go to: known once the first exchange is stored (or given). */
  readonly conversationId: string | undefined;
};


/**
 * A middleware for `wrapLanguageModel({ model, middleware })`. Before each call it assembles context for
 * the last user message and adds it as a system message (after the prompt's own system messages); after
 * the call, generated or streamed, it stores the exchange: the user message that ended the prompt and the
 * text the model answered. The first exchange creates the conversation (label, folder); later ones are
 * appended to it. A streamed call stores once its stream has ended, before the stream closes.
 */
export { MEMORY_CONTEXT_HEADING } from '../exchange-store.js';

export function memsvcMemory(options: MemsvcMemoryOptions): MemsvcMemoryMiddleware {
  const { client } = options;
  const exchanges = exchangeStore(options);
  const store = (messages: StoredMessage[]) => exchanges.store(messages);

  return {
    specificationVersion: 'v4',
    get conversationId() {
      return exchanges.conversationId;
    },
    async transformParams({ params }) {
      const query = lastUserText(params.prompt);
      if (!query) return params;
      const assembled = await client.assembleContext({
        ...options.context,
        query,
        format: 'text',
        ...(options.budget ? { context_budget: options.budget } : {}),
      });
      if (Array.isArray(assembled) || assembled.message_count === 0) return params;
      return { ...params, prompt: withSystemMessage(params.prompt, `${MEMORY_CONTEXT_HEADING}\n\n${assembled.context}`) };
    },
    async wrapGenerate({ doGenerate, params }): Promise<GenerateResult> {
      const result = await doGenerate();
      const answer = result.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
      await store(exchange(params.prompt, answer));
      return result;
    },
    async wrapStream({ doStream, params }): Promise<StreamResult> {
      const { stream, ...rest } = await doStream();
      let answer = '';
      const storing = new TransformStream<StreamPart, StreamPart>({
        transform(part, controller) {
          if (part.type === 'text-delta') answer += part.delta;
          controller.enqueue(part);
        },
        async flush(controller) {
          // The SDK's way to report a failure inside a stream: an error part (streamText hands it to onError).
          await store(exchange(params.prompt, answer)).catch((error: unknown) => controller.enqueue({ type: 'error', error }));
        },
      });
      return { ...rest, stream: stream.pipeThrough(storing) };
    },
  };
}

/** The memory tools (memory_search, memory_assemble_context, memory_store) as AI SDK tools, for `tools`. */
export function memsvcTools(client: MemsvcClient, options: MemoryToolOptions = {}) {
  const specs = memoryToolSpecs(client, options);
  return {
    [specs.search.name]: asTool(specs.search),
    [specs.context.name]: asTool(specs.context),
    [specs.store.name]: asTool(specs.store),
  } as { memory_search: Tool<SearchInput, unknown>; memory_assemble_context: Tool<ContextInput, unknown>; memory_store: Tool<StoreInput, unknown> };
}

function asTool<Input>(spec: MemoryToolSpec<Input>): Tool<Input, unknown> {
  // A thrown MemsvcError becomes the SDK's tool-error result, which the model sees with the server's message.
  return tool({ description: spec.description, inputSchema: jsonSchema<Input>(spec.inputSchema as JSONSchema7), execute: (input: Input) => spec.execute(input) });
}

function textOf(message: PromptMessage): string {
  if (typeof message.content === 'string') return message.content;
  return message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
}

function lastUserText(prompt: Prompt): string {
  const last = prompt.findLast((message) => message.role === 'user');
  return last ? textOf(last).trim() : '';
}

/** The user message that ended the prompt (not one before a tool round) and the model's text. */
function exchange(prompt: Prompt, answer: string): StoredMessage[] {
  const last = prompt.at(-1);
  const question = last?.role === 'user' ? textOf(last).trim() : '';
  return [
    ...(question ? [{ role: 'user' as const, content: question }] : []),
    ...(answer.trim() ? [{ role: 'assistant' as const, content: answer }] : []),
  ];
}

function withSystemMessage(prompt: Prompt, content: string): Prompt {
  const at = prompt.findIndex((message) => message.role !== 'system');
  const index = at === -1 ? prompt.length : at;
  return [...prompt.slice(0, index), { role: 'system', content }, ...prompt.slice(index)];
}

