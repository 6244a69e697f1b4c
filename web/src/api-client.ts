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

export class ApiError extends Error {
  constructor(readonly status: number, readonly code: string | undefined, message: string) {
    super(message);
    this.name = 'ApiError';
  }
}

export const apiKey = {
  get: (): string | null => sessionStorage.getItem(KEY_STORAGE),
  set: (key: string): void => sessionStorage.setItem(KEY_STORAGE, key),
  clear: (): void => sessionStorage.removeItem(KEY_STORAGE),
};

type UnauthorizedListener = (message: string) => void;
let unauthorizedListener: UnauthorizedListener = () => {};
/** Called when the server refuses the key: the app goes back to sign-in with the message. */
export const onUnauthorized = (listener: UnauthorizedListener): void => { unauthorizedListener = listener; };

async function call<T>(method: string, path: string, body?: unknown, key = apiKey.get()): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (key) headers.authorization = `Bearer ${key}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError(0, 'NETWORK', 'The server cannot be reached. Is memsvc running?');
  }
  const text = await response.text();
  let data: unknown;
  try { data = text ? JSON.parse(text) : undefined; } catch { data = undefined; }
  if (!response.ok) {
    const payload = (data ?? {}) as { error?: string; code?: string };
    const error = new ApiError(response.status, payload.code, payload.error ?? `${response.status} ${response.statusText}`);
    if (response.status === 401) {
      apiKey.clear();
      unauthorizedListener('The API key was not accepted. Sign in again.');
    }
    throw error;
  }
  return data as T;
}

const enc = encodeURIComponent;
const query = (params: Record<string, string | number | boolean | undefined>): string => {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined && value !== '') search.set(name, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
};

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
  /** Checks a key without storing it (sign-in). */
  verifyKey: (key: string) => call<Stats>('GET', '/stats', undefined, key),

  listConversations: (request: ListRequest) =>
    call<Page<ConversationListItem>>('GET', `/api/v1/conversations${query({ ...request })}`),
  folders: () => call<{ folders: FolderCount[] }>('GET', '/api/v1/folders'),
  conversation: (id: string) => call<Conversation>('GET', `/api/v1/conversations/${enc(id)}`),
  messages: (id: string, page: number, pageSize: number) =>
    call<Page<Message>>('GET', `/api/v1/conversations/${enc(id)}/messages${query({ page, page_size: pageSize })}`),
  relabel: (id: string, label: string, folder: string) =>
    call<void>('PUT', `/api/v1/conversations/${enc(id)}/label`, { label, folder }),
  move: (id: string, folder: string) => call<void>('PUT', `/api/v1/conversations/${enc(id)}/folder`, { folder }),
  setImportance: (id: string, importance: number) =>
    call<void>('PUT', `/api/v1/conversations/${enc(id)}/importance`, { importance_score: importance }),
  pin: (id: string) => call<void>('PUT', `/api/v1/conversations/${enc(id)}/pin`),
  archive: (id: string) => call<void>('PUT', `/api/v1/conversations/${enc(id)}/archive`),
  unarchive: (id: string) => call<void>('PUT', `/api/v1/conversations/${enc(id)}/unarchive`),
  remove: (id: string) => call<void>('DELETE', `/api/v1/conversations/${enc(id)}`),
  append: (id: string, role: Role, content: string) =>
    call<{ messages: Message[] }>('POST', `/api/v1/conversations/${enc(id)}/messages`, { messages: [{ role, content }] }),

  query: (text: string, mode: SearchMode, filters: SearchFilters, limit: number, offset: number) =>
    call<QueryResponse>('POST', '/api/v1/query', { query: text, mode, filters, limit, offset }),
  fullText: (text: string, filters: SearchFilters, limit: number, offset: number) =>
    call<{ results: FullTextHit[]; total: number }>('POST', '/api/v1/search/fts', { query: text, filters, limit, offset }),

  assemble: (body: { query: string; context_budget: number; preferred_labels: string[]; excluded_folders: string[] }) =>
    call<ContextMessage[]>('POST', '/api/v1/context/assemble', { ...body, format: 'messages' }),

  summarize: (id: string, level: SummaryLevel, refresh = false) =>
    call<Summary>('POST', '/api/v1/summarize', { conversation_id: id, level, ...(refresh ? { refresh } : {}) }),
  suggestLabels: (id: string) =>
    call<{ suggestions: LabelSuggestion[]; sources: string[] }>('POST', '/api/v1/labels/suggest', { conversation_id: id, limit: 8 }),

  pruneDryRun: (thresholdDays: number, importanceThreshold: number) =>
    call<DryRun>('POST', '/api/v1/prune/dry-run', { threshold_days: thresholdDays, importance_threshold: importanceThreshold, limit: 200 }),
  pruneExecute: (ids: string[]) => call<void>('POST', '/api/v1/prune/execute', { conversation_ids: ids }),

  stats: () => call<Stats & { embeddings?: EmbeddingStatus }>('GET', '/stats'),
  embeddingStatus: () => call<EmbeddingStatus>('GET', '/api/v1/embeddings/status'),
  activity: (days: number) => call<Activity>('GET', `/api/v1/activity/messages-per-day${query({ days })}`),
  /** 503 still carries the report, so it is read either way. */
  health: async (): Promise<Health> => {
    const response = await fetch('/health', { headers: { accept: 'application/json' } });
    return (await response.json()) as Health;
  },
};

export const errorText = (error: unknown): string =>
  error instanceof ApiError ? error.message : error instanceof Error ? error.message : String(error);
