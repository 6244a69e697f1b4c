/** Shapes of the public HTTP API (see GET /openapi.json); the UI knows nothing else about the server. */

export type Role = 'user' | 'assistant' | 'system';
export type EmbeddingState = 'pending' | 'done' | 'failed';
export type SearchMode = 'hybrid' | 'semantic' | 'keyword';
export type SortField = 'updated_at' | 'created_at' | 'importance_score' | 'label';
export type SummaryLevel = 'daily' | 'weekly' | 'monthly';

export interface Message {
  id: string;
  conversation_id: string;
  position: number;
  role: Role;
  content: string;
  timestamp: string;
  embedding_id: string | null;
  embedding_status: EmbeddingState | string;
  metadata: Record<string, unknown> | null;
}

export interface Conversation {
  id: string;
  conversation_id: string;
  label: string;
  folder: string;
  status: 'active' | 'archived' | string;
  pinned: boolean;
  importance_score: number;
  word_count: number;
  message_count: number;
  session_count: number;
  created_at: string;
  updated_at: string;
  last_accessed: string;
}

export interface ConversationListItem {
  conversation_id: string;
  label: string;
  folder: string;
  timestamp: string;
  metadata: {
    folder: string;
    status: string;
    importance_score: number;
    pinned: boolean;
    message_count: number;
    word_count: number;
    session_count: number;
    created_at: string;
    updated_at: string;
  };
}

export interface Page<T> {
  results: T[];
  total: number;
  page: number;
  page_size: number;
}

export interface FolderCount {
  folder: string;
  count: number;
  total: number;
}

export interface SearchFilters {
  folder?: string;
  label?: string;
  importance_min?: number;
  importance_max?: number;
  date_from?: string;
  date_to?: string;
  archived?: boolean;
}

export interface SearchHit {
  conversation_id: string;
  message_id: string;
  score: number;
  content: string;
  label: string;
  folder: string;
  timestamp: string;
  metadata: { role: string; position: number; importance_score: number; status: string };
}

export interface QueryResponse extends Page<SearchHit> {
  mode: SearchMode;
}

export interface FullTextHit {
  id: string;
  conversation_id: string;
  role: string;
  content: string;
  timestamp: string;
  score: number;
  label: string;
  folder: string;
}

export interface ContextMessage {
  id: string;
  conversation_id: string;
  role: Role;
  content: string;
  timestamp: string;
  metadata: { label: string; folder: string; relevance_score: number; importance_score: number };
}

export interface Summary {
  conversation_id: string;
  level: SummaryLevel;
  summary: string;
  generated_at: string;
  window_start: string;
  window_end: string;
  source_count: number;
  word_count: number;
  model: string | null;
  cached: boolean;
  note?: string;
}

export interface LabelSuggestion {
  label: string;
  confidence: number;
  is_existing: boolean;
  reason: string;
}

export interface PruningSuggestion {
  conversation_id: string;
  conversation_label: string;
  last_accessed: string;
  last_updated: string;
  message_count: number;
  token_estimate: number;
  importance_score: number;
  preview: string;
  recommendation: 'archive' | 'keep';
  reason: string;
}

export interface DryRun {
  suggestions: PruningSuggestion[];
  total: number;
  archive_count: number;
  estimated_token_savings: number;
  threshold_days: number;
  importance_threshold: number;
  idle_since: string;
}

export interface EmbeddingStatus {
  pending: number;
  done: number;
  failed: number;
  model: string | null;
  dimension: number | null;
  indexed: number;
  model_mismatch: { recorded: string; current: string } | null;
  rebuild: { started_at: string; total: number; done: number; complete: boolean } | null;
  worker: Record<string, unknown>;
}

export interface Stats {
  total_conversations: number;
  total_messages: number;
  storage_size_mb: number;
  embeddings_count: number;
  uptime_seconds: number;
  requests_total: number;
  /** 5xx other than 503. */
  errors_total: number;
  /** 503s: starting up or a dependency down. */
  unavailable_total?: number;
}

export interface Health {
  status: 'healthy' | 'unhealthy';
  timestamp: string;
  uptime_seconds: number;
  checks: Record<string, { status: 'ok' | 'error'; latency_ms: number; error?: string } & Record<string, unknown>>;
}

export interface Activity {
  from: string;
  to: string;
  days: Array<{ date: string; messages: number }>;
}
