import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { estimateTokens } from '../domain/token-count.js';
import { UpstreamError } from '../domain/upstream-error.js';
import { BridgeError, BridgeErrorCode } from './bridge.errors.js';
import type { BridgeProviders, ChatCompletionRequest } from './bridge.providers.js';
import {
  chatCompletionsRoute,
  embedRoute,
  extractRoute,
  healthRoute,
  openAiEmbeddingsRoute,
  scoreRoute,
  summarizeRoute,
  DEFAULT_TARGET_WORDS,
  type HealthResponse,
} from './bridge.schemas.js';
import { countWords } from './builtin/text-analysis.js';

export interface BridgeRoutesOptions {
  providers: BridgeProviders;
  startedAt: number;
}

export const CHAT_NOT_CONFIGURED_MESSAGE = 'No chat model is configured: set bridge.chat.provider to ollama or openai';

/** Upstream client errors that are the caller's to fix, passed through with their status on /v1/chat/completions. */
const PASS_THROUGH_STATUSES = new Set([400, 404, 422]);

export const bridgeRoutes: FastifyPluginAsyncTypebox<BridgeRoutesOptions> = async (app, { providers, startedAt }) => {
  app.post('/embed', { schema: embedRoute }, async (request, reply) => {
    const { embeddings } = providers;
    const vectors = await embeddings.embed(request.body.texts, { signal: clientGone(reply) });
    const dimension = vectors[0]?.length ?? embeddings.dimension;
    if (request.body.encoding_format === 'base64') {
      return { model: embeddings.model, dimension, embeddings_base64: vectors.map(toBase64) };
    }
    return { model: embeddings.model, dimension, embeddings: vectors.map((v) => Array.from(v)) };
  });

  app.post('/v1/embeddings', { schema: openAiEmbeddingsRoute }, async (request, reply) => {
    const { input, encoding_format: format, dimensions } = request.body;
    const texts = typeof input === 'string' ? [input] : input;
    const { embeddings } = providers;
    const vectors = await embeddings.embed(texts, { signal: clientGone(reply) });
    const dimension = vectors[0]?.length ?? embeddings.dimension;
    if (dimensions !== undefined && dimensions !== dimension) {
      throw new BridgeError(400, BridgeErrorCode.VALIDATION_FAILED, `body/dimensions must be ${dimension}: the configured model ${embeddings.model} produces ${dimension}-dimensional embeddings`);
    }
    const tokens = texts.reduce((sum, t) => sum + estimateTokens(t), 0);
    return {
      object: 'list' as const,
      data: vectors.map((v, index) => ({
        object: 'embedding' as const,
        index,
        embedding: format === 'base64' ? toBase64(v) : Array.from(v),
      })),
      model: embeddings.model,
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    };
  });

  app.post('/summarize', { schema: summarizeRoute }, async (request, reply) => {
    const { texts, target_words: target = DEFAULT_TARGET_WORDS } = request.body;
    const summary = texts.some((t) => t.trim()) ? await providers.summaries.summarize(texts, target, { signal: clientGone(reply) }) : '';
    return { summary, word_count: countWords(summary), model: providers.summaries.model };
  });

  app.post('/extract', { schema: extractRoute }, async (request) => {
    return { entities: providers.extractor.extract(request.body.text), model: providers.extractor.model };
  });

  app.post('/score', { schema: scoreRoute }, async (request) => {
    return { scores: request.body.texts.map((t) => providers.scorer.score(t)), model: providers.scorer.model };
  });

  app.post('/v1/chat/completions', { schema: chatCompletionsRoute }, async (request, reply) => {
    const { chat } = providers;
    if (!chat) throw new BridgeError(503, BridgeErrorCode.CHAT_NOT_CONFIGURED, CHAT_NOT_CONFIGURED_MESSAGE);
    const body = request.body as ChatCompletionRequest;
    const signal = clientGone(reply);
    try {
      if (!body.stream) return await chat.complete(body, { signal });
      const upstream = await chat.stream(body, { signal });
      reply
        .header('content-type', upstream.headers.get('content-type') ?? 'text/event-stream; charset=utf-8')
        .header('cache-control', 'no-cache')
        .header('x-accel-buffering', 'no');
      return reply.send(upstream.body ? Readable.fromWeb(upstream.body as WebReadableStream<Uint8Array>) : Readable.from([]));
    } catch (err) {
      if (err instanceof UpstreamError && err.kind === 'http' && err.status !== undefined && PASS_THROUGH_STATUSES.has(err.status)) {
        throw new BridgeError(err.status, BridgeErrorCode.UPSTREAM_REJECTED, `${chat.provider} upstream rejected the request: ${err.message}`, { cause: err });
      }
      throw err;
    }
  });

  app.get('/health', { schema: healthRoute }, async (_request, reply) => {
    const { embeddings, summaries, chat } = providers;
    const [embeddingsCheck, summariesCheck, chatCheck] = await Promise.all([probe(embeddings), probe(summaries), chat ? probe(chat) : Promise.resolve({ status: 'disabled' as const })]);
    const report: HealthResponse = {
      status: embeddingsCheck.status === 'ok' && summariesCheck.status === 'ok' ? 'healthy' : 'unhealthy',
      timestamp: new Date().toISOString(),
      uptime_seconds: Math.round((Date.now() - startedAt) / 1000),
      providers: {
        embeddings: {
          provider: embeddings.provider,
          model: embeddings.model,
          ...(embeddings.dimension > 0 ? { dimension: embeddings.dimension } : {}),
          ...(embeddings.loaded !== undefined ? { loaded: embeddings.loaded } : {}),
          ...embeddingsCheck,
        },
        summaries: { provider: summaries.provider, model: summaries.model, ...summariesCheck },
        chat: chat ? { provider: chat.provider, model: chat.model, ...chatCheck } : { provider: 'none', status: 'disabled' },
        extraction: { provider: 'builtin', model: providers.extractor.model, status: 'ok' },
        scoring: { provider: 'builtin', model: providers.scorer.model, status: 'ok' },
      },
    };
    return reply.code(report.status === 'healthy' ? 200 : 503).send(report);
  });
};

async function probe(provider: { check(): Promise<void> }): Promise<{ status: 'ok' } | { status: 'error'; error: string }> {
  try {
    await provider.check();
    return { status: 'ok' };
  } catch (err) {
    return { status: 'error', error: err instanceof Error ? err.message : String(err) };
  }
}

/** Aborts when our client closes the connection before we answered. */
function clientGone(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return controller.signal;
}

/** Little-endian float32 bytes in base64 (OpenAI's `encoding_format: "base64"`). */
function toBase64(vector: Float32Array): string {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString('base64');
}
