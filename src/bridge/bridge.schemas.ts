import { Type, type Static } from '@fastify/type-provider-typebox';

/**
 * Request and response schemas of the bridge: used by Fastify for validation
 * and serialisation and by @fastify/swagger for GET /openapi.json.
 */
export const MAX_EMBED_TEXTS = 256;
export const MAX_TEXT_CHARS = 100_000;
export const MAX_SUMMARY_TEXTS = 10_000;
export const MAX_SCORE_TEXTS = 1_000;
export const DEFAULT_TARGET_WORDS = 200;

export const ErrorResponse = Type.Object(
  {
    error: Type.String({ description: 'What went wrong, naming the field for validation failures.' }),
    code: Type.String({ description: 'Machine-readable code, e.g. VALIDATION_FAILED, UPSTREAM_TIMEOUT.' }),
    request_id: Type.Optional(Type.String()),
  },
  { title: 'BridgeError', description: 'Error body of the bridge endpoints.' },
);

export const OpenAiErrorResponse = Type.Object(
  {
    error: Type.Object({
      message: Type.String(),
      type: Type.String({ description: 'invalid_request_error, service_unavailable, upstream_error, timeout, server_error' }),
      code: Type.Union([Type.String(), Type.Null()]),
      param: Type.Union([Type.String(), Type.Null()]),
    }),
  },
  { title: 'OpenAiError', description: "Error body of the OpenAI-compatible endpoints (/v1/*), in OpenAI's shape." },
);

const Text = Type.String({ maxLength: MAX_TEXT_CHARS });

const errorResponses = {
  400: ErrorResponse,
  413: ErrorResponse,
  502: ErrorResponse,
  503: ErrorResponse,
  504: ErrorResponse,
};
const openAiErrorResponses = {
  400: OpenAiErrorResponse,
  413: OpenAiErrorResponse,
  502: OpenAiErrorResponse,
  503: OpenAiErrorResponse,
  504: OpenAiErrorResponse,
};

// POST /embed
export const EmbedRequest = Type.Object({
  texts: Type.Array(Text, { minItems: 1, maxItems: MAX_EMBED_TEXTS, description: `1..${MAX_EMBED_TEXTS} texts, each at most ${MAX_TEXT_CHARS} characters.` }),
  encoding_format: Type.Optional(Type.Union([Type.Literal('float'), Type.Literal('base64')], {
    description: 'float (default): `embeddings` as JSON numbers. base64: `embeddings_base64`, a quarter of the bytes and no number parsing.',
  })),
});
export const EmbedResponse = Type.Object({
  model: Type.String({ description: 'Identifier of the embedding model; store it with the vectors.' }),
  dimension: Type.Integer(),
  embeddings: Type.Optional(Type.Array(Type.Array(Type.Number()), { description: 'One L2-normalized vector per text, in input order (encoding_format float).' })),
  embeddings_base64: Type.Optional(Type.Array(Type.String(), {
    description: 'encoding_format base64: per text, base64 of its vector as little-endian float32, as OpenAI encodes them.',
  })),
});
export type EmbedRequest = Static<typeof EmbedRequest>;
export const embedRoute = {
  summary: 'Embed texts',
  tags: ['embeddings'],
  body: EmbedRequest,
  response: { 200: EmbedResponse, ...errorResponses },
} as const;

// POST /v1/embeddings (OpenAI)
export const OpenAiEmbeddingsRequest = Type.Object(
  {
    input: Type.Union([Text, Type.Array(Text, { minItems: 1, maxItems: MAX_EMBED_TEXTS })], { description: 'A text or 1..256 texts (token arrays are not supported).' }),
    model: Type.Optional(Type.String({ description: 'Ignored: the configured embedding model answers; see `model` in the response.' })),
    encoding_format: Type.Optional(Type.Union([Type.Literal('float'), Type.Literal('base64')])),
    dimensions: Type.Optional(Type.Integer({ minimum: 1 })),
    user: Type.Optional(Type.String()),
  },
  { additionalProperties: true },
);
export type OpenAiEmbeddingsRequest = Static<typeof OpenAiEmbeddingsRequest>;
export const OpenAiEmbeddingsResponse = Type.Object({
  object: Type.Literal('list'),
  data: Type.Array(
    Type.Object({
      object: Type.Literal('embedding'),
      index: Type.Integer(),
      embedding: Type.Union([Type.Array(Type.Number()), Type.String({ description: 'base64 of little-endian float32 when encoding_format is base64' })]),
    }),
  ),
  model: Type.String(),
  usage: Type.Object({ prompt_tokens: Type.Integer(), total_tokens: Type.Integer() }),
});
export const openAiEmbeddingsRoute = {
  summary: 'Embed texts (OpenAI-compatible)',
  tags: ['openai-compatible'],
  body: OpenAiEmbeddingsRequest,
  response: { 200: OpenAiEmbeddingsResponse, ...openAiErrorResponses },
} as const;

// POST /summarize
export const SummarizeRequest = Type.Object({
  texts: Type.Array(Text, { maxItems: MAX_SUMMARY_TEXTS, description: 'The passages, in order. Empty list -> empty summary.' }),
  target_words: Type.Optional(Type.Integer({ minimum: 1, maximum: 5000, default: DEFAULT_TARGET_WORDS, description: 'Approximate length of the summary.' })),
});
export type SummarizeRequest = Static<typeof SummarizeRequest>;
export const SummarizeResponse = Type.Object({
  summary: Type.String(),
  word_count: Type.Integer(),
  model: Type.String(),
});
export const summarizeRoute = {
  summary: 'Summarize passages',
  description: 'Builtin: extractive (TextRank + centroid ranking, MMR redundancy control, original order), at most one sentence over target_words. LLM providers: the chat model is prompted for about target_words words.',
  tags: ['text'],
  body: SummarizeRequest,
  response: { 200: SummarizeResponse, ...errorResponses },
} as const;

// POST /extract
export const ExtractRequest = Type.Object({ text: Text });
export type ExtractRequest = Static<typeof ExtractRequest>;
const Names = Type.Array(Type.String());
export const ExtractResponse = Type.Object({
  entities: Type.Object({ people: Names, places: Names, organizations: Names, dates: Names, emails: Names, urls: Names }),
  model: Type.String(),
});
export const extractRoute = {
  summary: 'Extract named entities',
  tags: ['text'],
  body: ExtractRequest,
  response: { 200: ExtractResponse, ...errorResponses },
} as const;

// POST /score
export const ScoreRequest = Type.Object({
  texts: Type.Array(Text, { minItems: 1, maxItems: MAX_SCORE_TEXTS }),
});
export type ScoreRequest = Static<typeof ScoreRequest>;
export const ScoreResponse = Type.Object({
  scores: Type.Array(Type.Integer({ minimum: 1, maximum: 10 }), { description: 'Importance 1..10 per text, in input order.' }),
  model: Type.String(),
});
export const scoreRoute = {
  summary: 'Score importance',
  description: 'Deterministic heuristics: decisions, commitments/deadlines, explicit markers, dates, named entities, contact details, numbers, questions and length; acknowledgements score 1.',
  tags: ['text'],
  body: ScoreRequest,
  response: { 200: ScoreResponse, ...errorResponses },
} as const;

// POST /v1/chat/completions (OpenAI)
export const ChatCompletionsRequest = Type.Object(
  {
    model: Type.Optional(Type.String({ description: 'Defaults to bridge.chat.model.' })),
    messages: Type.Array(Type.Object({ role: Type.String(), content: Type.Optional(Type.Unknown()) }, { additionalProperties: true }), { minItems: 1 }),
    stream: Type.Optional(Type.Boolean({ description: 'true: the upstream server-sent events are passed through.' })),
  },
  { additionalProperties: true, description: "OpenAI's chat completion request; other fields are forwarded unchanged." },
);
export type ChatCompletionsRequest = Static<typeof ChatCompletionsRequest>;
export const chatCompletionsRoute = {
  summary: 'Chat completion (OpenAI-compatible, forwarded to Ollama or an OpenAI-compatible server)',
  tags: ['openai-compatible'],
  body: ChatCompletionsRequest,
  response: {
    200: Type.Object({}, { additionalProperties: true, description: "The upstream's chat.completion object (or text/event-stream when stream is true)." }),
    ...openAiErrorResponses,
    404: OpenAiErrorResponse,
    422: OpenAiErrorResponse,
  },
} as const;

// GET /health
const ProviderHealth = Type.Object({
  provider: Type.String({ description: 'builtin, ollama, openai or none' }),
  model: Type.Optional(Type.String()),
  dimension: Type.Optional(Type.Integer()),
  status: Type.Union([Type.Literal('ok'), Type.Literal('error'), Type.Literal('disabled')]),
  loaded: Type.Optional(Type.Boolean({ description: 'Builtin embedder: loaded yet (it loads on the first /embed).' })),
  error: Type.Optional(Type.String()),
});
export const HealthResponse = Type.Object({
  status: Type.Union([Type.Literal('healthy'), Type.Literal('unhealthy')], { description: 'unhealthy when the embeddings or summaries provider fails its check; answered with 503.' }),
  timestamp: Type.String({ description: 'ISO 8601 with Z' }),
  uptime_seconds: Type.Number(),
  providers: Type.Object({
    embeddings: ProviderHealth,
    summaries: ProviderHealth,
    chat: ProviderHealth,
    extraction: ProviderHealth,
    scoring: ProviderHealth,
  }),
});
export type HealthResponse = Static<typeof HealthResponse>;
export const healthRoute = {
  summary: 'Health of the bridge and its providers',
  tags: ['system'],
  response: { 200: HealthResponse, 503: HealthResponse },
} as const;
