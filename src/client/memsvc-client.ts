import createClient, { type Client, type Middleware } from 'openapi-fetch';
import { errorFromResponse, MemsvcUnavailableError } from './client-errors.js';
import { DEFAULT_RETRY_POLICY, retryingFetch, type RetryPolicy } from './retrying-fetch.js';
import type { paths } from './openapi-schema.js';

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;
/** The JSON body a route answers with on success. */
export type ResponseOf<P extends keyof paths, M extends keyof paths[P]> =
  paths[P][M] extends { responses: infer R } ? Json<R[200 & keyof R]> | Json<R[201 & keyof R]> : never;
/** The JSON body a route takes. */
export type RequestOf<P extends keyof paths, M extends keyof paths[P]> =
  paths[P][M] extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
type QueryOf<P extends keyof paths, M extends keyof paths[P]> =
  paths[P][M] extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

export type Conversation = ResponseOf<'/api/v1/conversations/{id}', 'get'>;
export type ConversationPage = ResponseOf<'/api/v1/conversations', 'get'>;
export type ConversationListItem = ConversationPage['results'][number];
export type ListConversationsQuery = Partial<QueryOf<'/api/v1/conversations', 'get'>>;
export type CreateConversationRequest = RequestOf<'/api/v1/conversations', 'post'>;
export type MessagePage = ResponseOf<'/api/v1/conversations/{id}/messages', 'get'>;
export type Message = MessagePage['results'][number];
export type AppendMessagesRequest = RequestOf<'/api/v1/conversations/{id}/messages', 'post'>;
export type QueryRequest = RequestOf<'/api/v1/query', 'post'>;
export type QueryResponse = ResponseOf<'/api/v1/query', 'post'>;
export type SearchHit = QueryResponse['results'][number];
export type FullTextRequest = RequestOf<'/api/v1/search/fts', 'post'>;
export type AssembleContextRequest = RequestOf<'/api/v1/context/assemble', 'post'>;
export type ExportRequest = RequestOf<'/api/v1/export', 'post'>;
export type ImportResult = ResponseOf<'/api/v1/import', 'post'>;
export type Stats = ResponseOf<'/stats', 'get'>;
export type EmbeddingStatus = ResponseOf<'/api/v1/embeddings/status', 'get'>;

/** The tools, each with its own REST route (and schemas) in /openapi.json. */
export type ToolName = { [P in keyof paths]: P extends `/mcp/tools/${infer N}` ? (N extends '{tool}' ? never : N) : never }[keyof paths];
type ToolPath<T extends ToolName> = Extract<keyof paths, `/mcp/tools/${T}`>;
/** What a tool takes: its input schema. */
export type ToolParams<T extends ToolName> = RequestOf<ToolPath<T>, 'post' & keyof paths[ToolPath<T>]>;
/** A tool's answer on success: the envelope around its output schema. */
export type ToolEnvelope<T extends ToolName> = ResponseOf<ToolPath<T>, 'post' & keyof paths[ToolPath<T>]>;

export interface MemsvcClientOptions {
  /** e.g. http://127.0.0.1:8080; '' in a browser page served by memsvc. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <key>`; a function is asked on every request (for keys that change). */
  apiKey?: string | (() => string | null | undefined);
  retry?: Partial<RetryPolicy>;
  fetch?: typeof fetch;
  headers?: Record<string, string>;
}

interface Outcome<T> { data?: T; error?: unknown; response: Response }

/** Throws the typed error for a failed call, and a MemsvcUnavailableError when nothing answered. */
async function unwrap<T>(call: Promise<Outcome<T>>): Promise<T> {
  let outcome: Outcome<T>;
  try {
    outcome = await call;
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new MemsvcUnavailableError(0, 'NETWORK', `memsvc cannot be reached: ${(error as Error).message}`);
  }
  if (!outcome.response.ok) throw errorFromResponse(outcome.response, outcome.error);
  return outcome.data as T;
}

const DEFAULT_PAGE_SIZE = 100;

/**
 * A typed client for memsvc's HTTP API, generated from /openapi.json. `raw` reaches every route
 * with its types; the methods cover the common calls and page for you.
 */
export function createMemsvcClient(options: MemsvcClientOptions) {
  const policy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
  const baseFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const raw: Client<paths> = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    fetch: retryingFetch(baseFetch, policy),
    headers: options.headers,
  });
  const auth: Middleware = {
    onRequest({ request }) {
      const key = typeof options.apiKey === 'function' ? options.apiKey() : options.apiKey;
      if (key) request.headers.set('authorization', `Bearer ${key}`);
      return request;
    },
  };
  raw.use(auth);
  const id = (conversationId: string) => ({ params: { path: { id: conversationId } } });

  const conversations = {
    create: (body: CreateConversationRequest) => unwrap(raw.POST('/api/v1/conversations', { body })),
    get: (conversationId: string, include?: 'messages') =>
      unwrap(raw.GET('/api/v1/conversations/{id}', { params: { path: { id: conversationId }, query: include ? { include } : {} } as never })),
    list: (query: ListConversationsQuery = {}) => unwrap(raw.GET('/api/v1/conversations', {
      params: { query: { page: 1, page_size: DEFAULT_PAGE_SIZE, sort: 'updated_at', order: 'desc', ...query } },
    })),
    /** Every matching conversation, fetched a page at a time. */
    async *listAll(query: Omit<ListConversationsQuery, 'page'> = {}): AsyncGenerator<ConversationListItem> {
      for (let page = 1; ; page++) {
        const result = await conversations.list({ ...query, page });
        yield* result.results;
        if (result.results.length === 0 || page * result.page_size >= result.total) return;
      }
    },
    /** Every message of a conversation, in order, a page at a time. */
    async *messages(conversationId: string, pageSize = DEFAULT_PAGE_SIZE): AsyncGenerator<Message> {
      for (let page = 1; ; page++) {
        const result = await unwrap(raw.GET('/api/v1/conversations/{id}/messages', {
          params: { path: { id: conversationId }, query: { page, page_size: pageSize } },
        }));
        yield* result.results;
        if (result.results.length === 0 || page * result.page_size >= result.total) return;
      }
    },
    messagePage: (conversationId: string, page: number, pageSize = DEFAULT_PAGE_SIZE) =>
      unwrap(raw.GET('/api/v1/conversations/{id}/messages', { params: { path: { id: conversationId }, query: { page, page_size: pageSize } } })),
    append: (conversationId: string, messages: AppendMessagesRequest['messages']) =>
      unwrap(raw.POST('/api/v1/conversations/{id}/messages', { ...id(conversationId), body: { messages } })),
    relabel: (conversationId: string, label: string, folder: string) =>
      unwrap(raw.PUT('/api/v1/conversations/{id}/label', { ...id(conversationId), body: { label, folder } })),
    move: (conversationId: string, folder: string) =>
      unwrap(raw.PUT('/api/v1/conversations/{id}/folder', { ...id(conversationId), body: { folder } })),
    setImportance: (conversationId: string, importance: number) =>
      unwrap(raw.PUT('/api/v1/conversations/{id}/importance', { ...id(conversationId), body: { importance_score: importance } })),
    pin: (conversationId: string) => unwrap(raw.PUT('/api/v1/conversations/{id}/pin', id(conversationId))),
    archive: (conversationId: string) => unwrap(raw.PUT('/api/v1/conversations/{id}/archive', id(conversationId))),
    unarchive: (conversationId: string) => unwrap(raw.PUT('/api/v1/conversations/{id}/unarchive', id(conversationId))),
    delete: (conversationId: string) => unwrap(raw.DELETE('/api/v1/conversations/{id}', id(conversationId))),
    count: (query: QueryOf<'/api/v1/conversations/count', 'get'> = {}) =>
      unwrap(raw.GET('/api/v1/conversations/count', { params: { query } })),
    folders: () => unwrap(raw.GET('/api/v1/folders')),
  };

  const search = {
    query: (body: QueryRequest) => unwrap(raw.POST('/api/v1/query', { body })),
    /** Every ranked hit (at most limits.max_query_results), fetched `pageSize` at a time. */
    async *queryAll(body: Omit<QueryRequest, 'offset' | 'limit'>, pageSize = DEFAULT_PAGE_SIZE): AsyncGenerator<SearchHit> {
      for (let offset = 0; ; offset += pageSize) {
        const result = await search.query({ ...body, offset, limit: pageSize });
        yield* result.results;
        if (result.results.length < pageSize || offset + pageSize >= result.total) return;
      }
    },
    fullText: (body: FullTextRequest) => unwrap(raw.POST('/api/v1/search/fts', { body })),
  };

  /** API keys (admin) and the caller's own identity and tenant tokens; a token works wherever a key does. */
  const keys = {
    create: (body: RequestOf<'/api/v1/keys', 'post'>) => unwrap(raw.POST('/api/v1/keys', { body })),
    list: async () => (await unwrap(raw.GET('/api/v1/keys'))).keys,
    revoke: (keyId: string) => unwrap(raw.DELETE('/api/v1/keys/{id}', { params: { path: { id: keyId } } })),
    me: () => unwrap(raw.GET('/api/v1/keys/me')),
    mintToken: (grants: RequestOf<'/api/v1/keys/me/tokens', 'post'>['grants'], expiresIn = 3600) =>
      unwrap(raw.POST('/api/v1/keys/me/tokens', { body: { grants, expires_in: expiresIn } })),
  };

  return {
    raw,
    conversations,
    search,
    keys,
    assembleContext: (body: AssembleContextRequest) => unwrap(raw.POST('/api/v1/context/assemble', { body })),
    summarize: (body: RequestOf<'/api/v1/summarize', 'post'>) => unwrap(raw.POST('/api/v1/summarize', { body })),
    suggestLabels: (body: RequestOf<'/api/v1/labels/suggest', 'post'>) => unwrap(raw.POST('/api/v1/labels/suggest', { body })),
    pruneDryRun: (body: RequestOf<'/api/v1/prune/dry-run', 'post'> = {}) => unwrap(raw.POST('/api/v1/prune/dry-run', { body })),
    pruneExecute: (conversationIds: string[]) =>
      unwrap(raw.POST('/api/v1/prune/execute', { body: { conversation_ids: conversationIds } })),
    /** The export as a stream (json, jsonl or markdown), for writing to a file as it arrives. */
    export: async (body: ExportRequest): Promise<ReadableStream<Uint8Array>> => {
      const response = await unwrap(raw.POST('/api/v1/export', { body, parseAs: 'stream' }).then((outcome) =>
        ({ ...outcome, data: outcome.response })));
      return response.body!;
    },
    /**
     * One import request: a json document or array (`application/json`) or jsonl text (`application/x-ndjson`).
     * `sequence` names the batch and the batch it follows: stored only after that one was (409 OUT_OF_SEQUENCE if not).
     */
    import: (records: unknown[] | string, onConflict: 'skip' | 'replace' | 'new_id' = 'skip', sequence: { batch?: string; after?: string } = {}) =>
      unwrap(raw.POST('/api/v1/import', {
        params: { query: { on_conflict: onConflict, ...sequence } },
        body: records as never,
        ...(typeof records === 'string'
          ? { bodySerializer: (text: unknown) => text as string, headers: { 'content-type': 'application/x-ndjson' } }
          : {}),
      })),
    rebuildEmbeddings: () => unwrap(raw.POST('/api/v1/rebuild-embeddings')),
    embeddingStatus: () => unwrap(raw.GET('/api/v1/embeddings/status')),
    stats: () => unwrap(raw.GET('/stats')),
    /** The health report; a 503 (starting, or a failing check) still returns the report. */
    health: async () => {
      const outcome = await raw.GET('/health').catch((error: Error) => {
        throw new MemsvcUnavailableError(0, 'NETWORK', `memsvc cannot be reached: ${error.message}`);
      });
      return { healthy: outcome.response.ok, ...(outcome.data ?? outcome.error) as ResponseOf<'/health', 'get'> };
    },
    tools: {
      list: () => unwrap(raw.GET('/mcp/tools')),
      /** Typed by the tool's schemas; a failure throws like any other call (the envelope's code and message). */
      call: <T extends ToolName>(tool: T, params: ToolParams<T>): Promise<ToolEnvelope<T>> =>
        unwrap(raw.POST('/mcp/tools/{tool}', { params: { path: { tool } }, body: params as never })) as Promise<ToolEnvelope<T>>,
    },
  };
}

export type MemsvcClient = ReturnType<typeof createMemsvcClient>;
