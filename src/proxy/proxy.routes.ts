import { Readable } from 'node:stream';
import type { FastifyBaseLogger, FastifyPluginAsync, FastifyReply } from 'fastify';
import { LimitExceededError, NotFoundError, ValidationError } from '../domain/errors.js';
import { newId } from '../domain/ids.js';
import { UpstreamError } from '../domain/upstream-error.js';
import type { ContextService } from '../features/context/context.service.js';
import { canWrite, defaultFolder, type Scope } from '../domain/scope.js';
import { principalOf } from '../http/principal.js';
import {
  labelFrom, latestUserName, latestUserText, messageText, validateChatBody, withSystemMessage, firstUserText, type ChatCompletionBody,
} from './chat-request.js';
import { CompletionStreamReader, readCompletion, type CompletionSummary } from './completion-reader.js';
import type { ConversationTargets, ProxyConversations } from './conversation-target.js';
import type { ExchangeRecorder } from './exchange-recorder.js';
import type { ExchangeTarget } from './exchange-spool.js';
import { assembleMemoryMessage } from './memory-context.js';
import { MemoryHeader, parseMemoryHeaders, upstreamAuthorization, type HeaderRules, type MemoryDirectives } from './memory-headers.js';
import { openAiError, ProxyError, ProxyErrorCode, proxyErrorOf, type OpenAiErrorBody } from './proxy-errors.js';
import { ClientGoneError, type UpstreamAnswer, type UpstreamClient } from './upstream.client.js';

export interface ProxyRoutesOptions {
  upstream: UpstreamClient;
  /** The caller's scope's services: its conversation checks and its context see only its grants. */
  scoped: (scope: Scope) => { conversations: ProxyConversations; context: Pick<ContextService, 'assemble'> };
  targets: ConversationTargets;
  recorder: ExchangeRecorder;
  headerRules: HeaderRules;
  passThroughAuth: boolean;
  upstreamApiKey: string;
}

/** The exchange is stored with the controller's services once the caller may write there; checked before anything goes upstream. */
function requireWrite(scope: Scope, folder: string, header: string): void {
  if (!canWrite(scope, folder)) {
    throw new ProxyError(403, ProxyErrorCode.PERMISSION_DENIED, `This key may not write to ${folder}`, header);
  }
}

/** Response headers the proxy adds. */
export const ResponseHeader = {
  CONVERSATION_ID: 'x-memory-conversation-id',
  CONTEXT_TOKENS: 'x-memory-context-tokens',
  CONTEXT_ENTRIES: 'x-memory-context-entries',
} as const;

/** Upstream response headers worth passing on (rate limits, request ids, OpenAI's processing info). */
const PASSED_HEADERS = /^(x-request-id|retry-after|openai-[a-z-]+|x-ratelimit-[a-z-]+)$/i;

/** Where the exchange of one request is to be stored. */
interface StoragePlan {
  target: ExchangeTarget;
  userText: string;
}

/**
 * The OpenAI-compatible surface: POST /v1/chat/completions (plain and SSE) and
 * GET /v1/models, forwarded to proxy.upstream_url. Chat requests get a memory
 * system message and their exchange stored; see README "Chat proxy".
 */
export const proxyRoutes: FastifyPluginAsync<ProxyRoutesOptions> = async (app, options) => {
  const { upstream, targets, recorder } = options;

  app.get('/v1/models', async (request, reply) => {
    const authorization = upstreamAuthorization(request.headers, options.passThroughAuth, options.upstreamApiKey);
    const signal = clientGone(reply);
    const answer = await callOrLeave(() => upstream.call({ method: 'GET', path: '/models', authorization, signal }));
    if (!answer) return leave(reply);
    passHeaders(answer, reply);
    if (answer.status >= 300) return sendUpstreamError(answer, reply);
    return reply.code(answer.status).type(answer.headers.get('content-type') ?? 'application/json').send(answer.text ?? '');
  });

  app.post('/v1/chat/completions', async (request, reply) => {
    const directives = parseMemoryHeaders(request.headers, options.headerRules);
    const authorization = upstreamAuthorization(request.headers, options.passThroughAuth, options.upstreamApiKey);
    const body = validateChatBody(request.body);
    const userText = latestUserText(body.messages);
    const useMemory = !directives.disabled && userText !== '';

    // Before anything goes upstream: an unknown conversation is the client's mistake (404).
    const scope = principalOf(request).scope;
    const { conversations, context } = options.scoped(scope);
    const plan = useMemory ? await planStorage(scope, conversations, directives, body, userText, request.log) : null;
    const forwarded = useMemory ? await withMemory(context, body, userText, directives, reply, request.log) : body;

    const receivedAt = new Date().toISOString();
    const signal = clientGone(reply);
    const stream = body.stream === true;
    const answer = await callOrLeave(() => upstream.call({ method: 'POST', path: '/chat/completions', body: forwarded, authorization, stream, signal }));
    if (!answer) return leave(reply);
    passHeaders(answer, reply);
    if (answer.status >= 300) return sendUpstreamError(answer, reply);

    // The conversation id is settled before the headers go out, so the client learns it; a new
    // conversation is only created with its first exchange.
    const announced = plan ? await announce(plan, request.log) : null;
    if (announced) reply.header(ResponseHeader.CONVERSATION_ID, announced);
    const finish = plan ? exchangeSpooler(plan, receivedAt, latestUserName(body.messages)) : () => undefined;

    const contentType = answer.headers.get('content-type');
    if (!answer.stream) {
      finish(readCompletion(answer.text ?? ''));
      return reply.code(answer.status).type(contentType ?? 'application/json').send(answer.text ?? '');
    }
    reply.code(answer.status)
      .header('content-type', contentType ?? 'text/event-stream; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('x-accel-buffering', 'no');
    const isSse = (contentType ?? 'text/event-stream').includes('text/event-stream');
    return reply.send(Readable.from(relay(answer, isSse, signal, finish, request.log), { objectMode: false }));
  });

  /**
   * Spools the exchange (durably, synchronously) at most once: called before the
   * client gets the last byte. Nothing is stored without text (a tool call, a broken stream).
   */
  function exchangeSpooler(plan: StoragePlan, receivedAt: string, userName: string | undefined):
    (summary: CompletionSummary | null) => void {
    let finished = false;
    return (summary) => {
      if (finished) return;
      finished = true;
      if (!summary || summary.content.trim() === '') return;
      recorder.record({
        id: newId(),
        target: plan.target,
        user: { content: plan.userText, timestamp: receivedAt, ...(userName !== undefined ? { name: userName } : {}) },
        assistant: { content: summary.content, timestamp: new Date().toISOString() },
        ...(summary.model ? { model: summary.model } : {}),
        receivedAt,
      });
    };
  }

  /**
   * Passes a streaming answer on chunk by chunk. The exchange is spooled before
   * the client's last byte: `data: [DONE]` for SSE, else the last chunk (held back one).
   */
  async function* relay(answer: UpstreamAnswer, isSse: boolean, signal: AbortSignal,
    finish: (summary: CompletionSummary | null) => void, log: FastifyBaseLogger): AsyncGenerator<Uint8Array> {
    const reader = new CompletionStreamReader();
    const raw: Buffer[] = [];
    let outcome: CompletionSummary | null = null;
    try {
      let held: Uint8Array | null = null;
      for await (const chunk of upstream.readStream(answer, signal)) {
        if (!isSse) {
          raw.push(Buffer.from(chunk));
          if (held) yield held;
          held = chunk;
          continue;
        }
        reader.push(chunk);
        const done = Buffer.from(chunk).indexOf('data: [DONE]');
        if (done < 0) {
          yield chunk;
          continue;
        }
        if (done > 0) yield chunk.subarray(0, done);
        if (!reader.failed) finish(reader.end());
        yield chunk.subarray(done);
      }
      const summary = isSse ? reader.end() : readCompletion(Buffer.concat(raw).toString('utf8'));
      // A stream that ends cleanly counts even without [DONE]; one that carried an error event does not.
      if (!reader.failed) outcome = summary;
      if (held) {
        finish(outcome);
        yield held;
      }
    } catch (error) {
      if (error instanceof ClientGoneError) {
        log.info('client closed the connection during the stream; the exchange is not stored');
        return;
      }
      if (!(error instanceof UpstreamError)) throw error;
      log.warn({ err: error }, 'upstream stream failed');
      // OpenAI clients raise an `error` event as an APIError.
      yield Buffer.from(`data: ${JSON.stringify(proxyErrorOf(error, true).toBody())}\n\n`);
    } finally {
      finish(outcome);
    }
  }

  /** Resolves which conversation the exchange goes to, without writing anything yet. */
  async function planStorage(scope: Scope, conversations: ProxyConversations, directives: MemoryDirectives,
    body: ChatCompletionBody, userText: string, log: FastifyBaseLogger): Promise<StoragePlan> {
    if (directives.conversationId !== undefined) {
      try {
        // Through the caller's scope: a conversation outside its grants is unknown (404).
        const conversation = await conversations.peek(directives.conversationId);
        requireWrite(scope, conversation.folder, MemoryHeader.CONVERSATION_ID);
        return { target: { conversationId: conversation.id }, userText };
      } catch (error) {
        if (error instanceof NotFoundError) {
          throw new ProxyError(404, ProxyErrorCode.CONVERSATION_NOT_FOUND, error.message, MemoryHeader.CONVERSATION_ID, { cause: error });
        }
        // The store is in trouble: answer anyway; the recorder retries, and refuses then if the id is unknown.
        log.warn({ err: error }, 'could not check the conversation id; answering and storing later');
        return { target: { conversationId: directives.conversationId }, userText };
      }
    }
    const folder = directives.folder ?? defaultFolder(scope);
    requireWrite(scope, folder, MemoryHeader.FOLDER);
    if (directives.label !== undefined) return { target: { create: { label: directives.label, folder, reuseByLabel: true } }, userText };
    const label = labelFrom(firstUserText(body.messages), options.headerRules.maxLabelChars);
    return { target: { create: { label, folder, reuseByLabel: false } }, userText };
  }

  /** The body with the memory system message; memory trouble (other than a bad request) only costs the memory. */
  async function withMemory(context: Pick<ContextService, 'assemble'>, body: ChatCompletionBody, userText: string, directives: MemoryDirectives,
    reply: FastifyReply, log: FastifyBaseLogger): Promise<ChatCompletionBody> {
    try {
      const inPrompt = body.messages.map(messageText).filter((text) => text.trim() !== '');
      const memory = await assembleMemoryMessage(context, userText, directives, inPrompt);
      reply.header(ResponseHeader.CONTEXT_TOKENS, String(memory?.tokens ?? 0));
      reply.header(ResponseHeader.CONTEXT_ENTRIES, String(memory?.entries ?? 0));
      return memory ? { ...body, messages: withSystemMessage(body.messages, memory.content) } : body;
    } catch (error) {
      if (error instanceof ValidationError || error instanceof LimitExceededError) {
        throw new ProxyError(400, ProxyErrorCode.INVALID_HEADER, error.message, null, { cause: error });
      }
      log.warn({ err: error }, 'context assembly failed; forwarding without memory');
      return body;
    }
  }

  /** The conversation id to announce: existing, found by label, or reserved for creation (null when the store failed). */
  async function announce(plan: StoragePlan, log: FastifyBaseLogger): Promise<string | null> {
    if ('conversationId' in plan.target) return plan.target.conversationId;
    const { create } = plan.target;
    try {
      const existing = create.reuseByLabel ? await targets.findByLabel(create.label, create.folder) : null;
      if (existing) {
        plan.target = { conversationId: existing.id };
        return existing.id;
      }
    } catch (error) {
      log.warn({ err: error }, 'could not look the label up before answering; the exchange is stored later');
      return null;
    }
    create.id = targets.reserve(create);
    return create.id;
  }
};

/** Aborts when our client closes the connection before the response is complete. */
function clientGone(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return controller.signal;
}

async function callOrLeave(call: () => Promise<UpstreamAnswer>): Promise<UpstreamAnswer | null> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof ClientGoneError) return null;
    throw error;
  }
}

/** Our client left: nothing can be sent. */
function leave(reply: FastifyReply): FastifyReply {
  reply.log.info('client closed the connection before the upstream answered');
  reply.hijack();
  reply.raw.destroy();
  return reply;
}

function passHeaders(answer: UpstreamAnswer, reply: FastifyReply): void {
  answer.headers.forEach((value, name) => {
    if (PASSED_HEADERS.test(name)) reply.header(name, value);
  });
}

/** An upstream HTTP error goes back with its status; its body is made OpenAI-shaped when it is not already. */
function sendUpstreamError(answer: UpstreamAnswer, reply: FastifyReply): FastifyReply {
  return reply.code(answer.status).type('application/json; charset=utf-8').send(upstreamErrorBody(answer.status, answer.text ?? ''));
}

export function upstreamErrorBody(status: number, text: string): OpenAiErrorBody | unknown {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const error = (parsed as { error?: unknown } | undefined)?.error;
  if (typeof error === 'object' && error !== null && typeof (error as { message?: unknown }).message === 'string') return parsed;
  if (typeof error === 'string') {
    const code = (parsed as { code?: unknown }).code;
    return openAiError(status, error, typeof code === 'string' ? code : 'upstream_error');
  }
  const message = text.trim() === '' ? `The upstream answered HTTP ${status}` : `The upstream answered HTTP ${status}: ${text.trim().slice(0, 500)}`;
  return openAiError(status, message, 'upstream_error');
}
