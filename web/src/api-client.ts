import { createMemsvcClient } from '../../src/client/memsvc-client.js';
import { MemsvcAuthError, MemsvcError } from '../../src/client/client-errors.js';
import type {
  Activity, Conversation, ContextMessage, ConversationListItem, DryRun, EmbeddingStatus, FolderCount, FullTextHit,
  Health, LabelSuggestion, Message, Page, QueryResponse, Role, SearchFilters, SearchMode, SortField, Stats, Summary,
  SummaryLevel,
} from './api-types.js';

/**
 * The only door to the server: the public HTTP API with the API key the user signed in with.
 * The key lives in sessionStorage (gone when the tab closes) and is sent as a Bearer token.
 */
const KEY_STORAGE = 'memsvc.apiKey';

/** Failures of the API: the typed client's errors (status 0 when the server could not be reached). */
export { MemsvcError as ApiError } from '../../src/client/client-errors.js';

export const apiKey = {
  get: (): string | null => sessionStorage.getItem(KEY_STORAGE),
  set: (key: string): void => sessionStorage.setItem(KEY_STORAGE, key),
  clear: (): void => sessionStorage.removeItem(KEY_STORAGE),
};

type UnauthorizedListener = (message: string) => void;
let unauthorizedListener: UnauthorizedListener = () => {};
/** Called when the server refuses the key: the app goes back to sign-in with the message. */
export const onUnauthorized = (listener: UnauthorizedListener): void => { unauthorizedListener = listener; };

/** The typed client (generated from /openapi.json) on this page's origin, with the signed-in key. */
const client = createMemsvcClient({ baseUrl: '', apiKey: () => apiKey.get() });

/** Runs a client call; a refused key signs the user out, an unreachable server gets a plain message. */
async function call<T>(request: Promise<unknown>): Promise<T> {
  try {
    return await request as T;
  } catch (error) {
    if (error instanceof MemsvcError && error.status === 0) {
      throw new MemsvcError(0, 'NETWORK', 'The server cannot be reached. Is memsvc running?');
    }
    if (error instanceof MemsvcAuthError) {
      apiKey.clear();
      unauthorizedListener('The API key was not accepted. Sign in again.');
    }
    throw error;
  }
}


export interface ListRequest {
  page: number;
  page_size: number;
  sort: SortField;
  order: 'asc' | 'desc';
  label?: string;
  folder?: string;
  pinned?: boolean;
  archived?: boolean;
}

export const api = {
  /** The signed-in key: its grants say what the UI offers. */
  me: () => call<{ id: string; name: string; admin: boolean; grants: Array<{ folder: string; access: 'read' | 'write' }> }>(client.keys.me()),
  /** Checks a key without storing it (sign-in). */
  verifyKey: (key: string) => createMemsvcClient({ baseUrl: '', apiKey: key }).stats() as Promise<Stats>,

  listConversations: (request: ListRequest) => call<Page<ConversationListItem>>(client.conversations.list(request)),
  folders: () => call<{ folders: FolderCount[] }>(client.conversations.folders()),
  conversation: (id: string) => call<Conversation>(client.conversations.get(id)),
  messages: (id: string, page: number, pageSize: number) => call<Page<Message>>(client.conversations.messagePage(id, page, pageSize)),
  relabel: (id: string, label: string, folder: string) => call<void>(client.conversations.relabel(id, label, folder)),
  move: (id: string, folder: string) => call<void>(client.conversations.move(id, folder)),
  setImportance: (id: string, importance: number) => call<void>(client.conversations.setImportance(id, importance)),
  pin: (id: string) => call<void>(client.conversations.pin(id)),
  archive: (id: string) => call<void>(client.conversations.archive(id)),
  unarchive: (id: string) => call<void>(client.conversations.unarchive(id)),
  remove: (id: string) => call<void>(client.conversations.delete(id)),
  append: (id: string, role: Role, content: string) =>
    call<{ messages: Message[] }>(client.conversations.append(id, [{ role, content }])),

  query: (text: string, mode: SearchMode, filters: SearchFilters, limit: number, offset: number) =>
    call<QueryResponse>(client.search.query({ query: text, mode, filters, limit, offset })),
  fullText: (text: string, filters: SearchFilters, limit: number, offset: number) =>
    call<{ results: FullTextHit[]; total: number }>(client.search.fullText({ query: text, filters, limit, offset })),

  assemble: (body: { query: string; context_budget: number; preferred_labels: string[]; excluded_folders: string[] }) =>
    call<ContextMessage[]>(client.assembleContext({ ...body, format: 'messages' })),

  summarize: (id: string, level: SummaryLevel, refresh = false) =>
    call<Summary>(client.summarize({ conversation_id: id, level, ...(refresh ? { refresh } : {}) })),
  suggestLabels: (id: string) =>
    call<{ suggestions: LabelSuggestion[]; sources: string[] }>(client.suggestLabels({ conversation_id: id, limit: 8 })),

  pruneDryRun: (thresholdDays: number, importanceThreshold: number) =>
    call<DryRun>(client.pruneDryRun({ threshold_days: thresholdDays, importance_threshold: importanceThreshold, limit: 200 })),
  pruneExecute: (ids: string[]) => call<void>(client.pruneExecute(ids)),

  stats: () => call<Stats & { embeddings?: EmbeddingStatus }>(client.stats()),
  embeddingStatus: () => call<EmbeddingStatus>(client.embeddingStatus()),
  activity: (days: number) =>
    call<Activity>(client.raw.GET('/api/v1/activity/messages-per-day', { params: { query: { days } } }).then(({ data, error, response }) => {
      if (!response.ok) throw new MemsvcError(response.status, (error as { code?: string })?.code ?? `HTTP_${response.status}`, (error as { error?: string })?.error ?? response.statusText);
      return data;
    })),
  /** 503 still carries the report, so it is read either way. */
  health: async (): Promise<Health> => (await client.health()) as unknown as Health,
};

export const errorText = (error: unknown): string =>
  error instanceof MemsvcError ? error.message : error instanceof Error ? error.message : String(error);
