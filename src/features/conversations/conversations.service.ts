import {
  DEFAULT_IMPORTANCE,
  PINNED_IMPORTANCE,
  type Conversation,
  type ConversationStatus,
  type MessageInput,
} from '../../domain/conversation.js';
import { ConversationNotFoundError, ErrorCode, ValidationError } from '../../domain/errors.js';
import { normalizeFolder, ROOT_FOLDER } from '../../domain/folder-path.js';
import { isUuid, newId } from '../../domain/ids.js';
import { labelFilter } from '../../domain/label.js';
import { checkLabel, checkMessages } from '../../domain/conversation-rules.js';
import type { Clock } from '../../ports/clock.js';
import type { AccessRecorder } from './access-recorder.js';
import type {
  AppendPolicy,
  ConversationFilter,
  ConversationListRequest,
  ConversationPatch,
  ConversationStore,
  FolderCount,
  GroupStats,
} from '../../ports/conversation-store.js';
import { WritesInFlight } from '../../domain/writes-in-flight.js';

export interface LabelOrFolder { label?: string; folder?: string }

export interface ConversationStats {
  /** The filter as applied (folder normalized). */
  filter: LabelOrFolder;
  by: 'label' | 'folder';
  groups: GroupStats[];
  total: number;
  averageImportance: number;
}

export interface ConversationLimits {
  maxMessageChars: number;
  maxMessagesPerConversation: number;
  maxPageSize: number;
  maxLabelChars: number;
  maxFolderChars: number;
  maxFolderDepth: number;
  maxMetadataBytes: number;
}

export interface CreateConversationInput {
  /** Chosen by the caller when it announced the id before creating (the chat proxy); default a new one. */
  id?: string;
  label: string;
  folder?: string;
  messages: readonly MessageInput[];
  importanceScore?: number;
}

export interface ConversationServiceDeps {
  store: ConversationStore;
  clock: Clock;
  limits: ConversationLimits;
  sessionGapMs: number;
  /** Called after messages were durably stored, to wake the embedding worker (the queue itself is in the store). */
  onMessagesStored?: () => void;
  /** Called after a conversation was deleted, with the keys of its removed messages (to drop their vectors). */
  onConversationDeleted?: (messageKeys: readonly number[]) => void;
  /** Where client reads record their access (one recorder for every feature that counts a read). */
  accesses: AccessRecorder;
  /** Counts creates and appends while they wait on the store (absent: a counter no one reads). */
  writes?: WritesInFlight;
  /** Where a create without a folder goes (a tenant's first write grant; the root by default). */
  defaultFolder?: string;
}

export interface FolderNode {
  folder: string;
  /** Conversations directly in the folder. */
  count: number;
  /** Conversations in the folder and below. */
  total: number;
}

/** The use-cases of conversation management; transport-agnostic (HTTP routes and MCP tools call it). */
export class ConversationService {
  private readonly writes: WritesInFlight;

  constructor(private readonly deps: ConversationServiceDeps) {
    this.writes = deps.writes ?? new WritesInFlight();
  }

  async create(input: CreateConversationInput): Promise<Conversation> {
    const now = this.now();
    const planned = {
      id: input.id ?? newId(),
      label: this.label(input.label),
      folder: this.folder(input.folder ?? this.deps.defaultFolder ?? ROOT_FOLDER),
      importanceScore: input.importanceScore ?? DEFAULT_IMPORTANCE,
      messages: this.messages(input.messages),
      now,
    };
    const conversation = await this.writes.around(() => this.deps.store.create(planned, this.appendPolicy()));
    if (input.messages.length > 0) this.deps.onMessagesStored?.();
    return conversation;
  }

  /** A read by a client: records last access (for pruning), and answers without waiting for that write. */
  async get(id: string): Promise<Conversation> {
    this.requireUuid(id);
    const now = this.now();
    const conversation = await this.require(id);
    this.deps.accesses.record(id, now);
    return { ...conversation, lastAccessedAt: now };
  }

  /** Settles once the accesses recorded so far are stored (a stop waits for them; so can a test). */
  accessesRecorded(): Promise<void> {
    return this.deps.accesses.settled();
  }

  /** A read that does not count as access (internal use, e.g. ranking). */
  async peek(id: string): Promise<Conversation> {
    return this.require(id);
  }

  async list(request: Omit<ConversationListRequest, 'filter'> & { filter: ConversationFilter }) {
    this.page(request);
    return this.deps.store.list({ ...request, filter: this.filter(request.filter) });
  }

  /** The count with the filter as applied (folder normalized). */
  async count(filter: LabelOrFolder): Promise<{ count: number; label?: string; folder?: string }> {
    const applied = this.labelOrFolder(filter);
    return { count: await this.deps.store.count(applied), ...applied };
  }

  /** Totals and average importance, by label when one is given, otherwise by folder (within one when given). */
  async stats(filter: LabelOrFolder): Promise<ConversationStats> {
    const applied = this.labelOrFolder(filter);
    const by = applied.label !== undefined ? 'label' : 'folder';
    const groups = await this.deps.store.groupStats(applied, by);
    const total = groups.reduce((sum, group) => sum + group.count, 0);
    const weighted = groups.reduce((sum, group) => sum + group.count * group.averageImportance, 0);
    return { filter: applied, by, groups, total, averageImportance: total > 0 ? weighted / total : 0 };
  }

  async update(id: string, patch: ConversationPatch): Promise<string[]> {
    const clean: ConversationPatch = {};
    if (patch.label !== undefined) clean.label = this.label(patch.label);
    if (patch.folder !== undefined) clean.folder = this.folder(patch.folder);
    if (patch.importanceScore !== undefined) clean.importanceScore = this.importance(patch.importanceScore);
    if (patch.status !== undefined) clean.status = patch.status;
    this.requireUuid(id);
    if (!(await this.deps.store.update(id, clean, this.now()))) throw new ConversationNotFoundError(id);
    return Object.keys(clean);
  }

  pin(id: string): Promise<string[]> {
    return this.update(id, { importanceScore: PINNED_IMPORTANCE });
  }

  setStatus(id: string, status: ConversationStatus): Promise<string[]> {
    return this.update(id, { status });
  }

  /** Archives (or restores) all ids or, when any is unknown, none. */
  async setStatusMany(ids: readonly string[], status: ConversationStatus): Promise<void> {
    const malformed = ids.find((id) => !isUuid(id));
    if (malformed !== undefined) throw new ConversationNotFoundError(malformed);
    const unknown = await this.deps.store.setStatusMany([...new Set(ids)], status, this.now());
    if (unknown.length > 0) throw new ConversationNotFoundError(unknown[0]!);
  }

  async delete(id: string): Promise<void> {
    this.requireUuid(id);
    const messageKeys = await this.deps.store.delete(id);
    if (messageKeys === null) throw new ConversationNotFoundError(id);
    this.deps.onConversationDeleted?.(messageKeys);
  }

  async appendMessages(id: string, inputs: readonly MessageInput[]) {
    this.requireUuid(id);
    const messages = this.messages(inputs);
    const result = await this.writes.around(() => this.deps.store.appendMessages(id, messages, this.now(), this.appendPolicy()));
    if (result === null) throw new ConversationNotFoundError(id);
    this.deps.onMessagesStored?.();
    return result;
  }

  /** Paging through messages is a read by a client: it records access, like get(). */
  async listMessages(id: string, page: { offset: number; limit: number }) {
    this.page(page);
    await this.require(id);
    this.deps.accesses.record(id, this.now());
    return this.deps.store.listMessages(id, page);
  }

  /** All messages in order (at most limits.max_messages_per_conversation), for inline and export use. */
  async allMessages(id: string) {
    const page = await this.deps.store.listMessages(id, { offset: 0, limit: this.deps.limits.maxMessagesPerConversation });
    return page.items;
  }

  /** Every folder that holds conversations, with its ancestors, counted directly and by subtree. */
  async folderTree(): Promise<FolderNode[]> {
    const nodes = new Map<string, FolderNode>();
    const node = (folder: string) => {
      let existing = nodes.get(folder);
      if (!existing) nodes.set(folder, (existing = { folder, count: 0, total: 0 }));
      return existing;
    };
    node(ROOT_FOLDER);
    for (const { folder, count } of await this.deps.store.folderCounts() as FolderCount[]) {
      node(folder).count += count;
      for (const ancestor of ancestorsOf(folder)) node(ancestor).total += count;
    }
    return [...nodes.values()].sort((a, b) => a.folder.localeCompare(b.folder));
  }

  /** Throws the 404 for unknown and malformed ids alike. */
  async require(id: string): Promise<Conversation> {
    this.requireUuid(id);
    const conversation = await this.deps.store.get(id);
    if (!conversation) throw new ConversationNotFoundError(id);
    return conversation;
  }

  normalizeFolder(folder: string, field = 'folder'): string {
    return this.folder(folder, field);
  }

  private requireUuid(id: string): void {
    if (!isUuid(id)) throw new ConversationNotFoundError(id);
  }

  /** Count and stats take one of the two filters, normalized as every filter is. */
  private labelOrFolder(filter: LabelOrFolder): LabelOrFolder {
    if (filter.label !== undefined && filter.folder !== undefined) {
      throw new ValidationError('Give label or folder, not both', ErrorCode.INVALID_FILTER);
    }
    return this.filter(filter);
  }

  private filter(filter: ConversationFilter): ConversationFilter {
    return {
      ...filter,
      ...(filter.folder !== undefined ? { folder: this.folder(filter.folder) } : {}),
      ...(filter.label !== undefined ? { label: labelFilter(filter.label, 'label') } : {}),
    };
  }

  private label(label: string): string {
    return checkLabel(label, this.deps.limits.maxLabelChars);
  }

  private folder(folder: string, field = 'folder'): string {
    return normalizeFolder(folder, {
      maxChars: this.deps.limits.maxFolderChars,
      maxDepth: this.deps.limits.maxFolderDepth,
    }, field);
  }

  private importance(score: number): number {
    if (!Number.isInteger(score) || score < 1 || score > 10) {
      throw new ValidationError('importance_score must be an integer from 1 to 10');
    }
    return score;
  }

  private page({ offset, limit }: { offset: number; limit: number }): void {
    if (limit > this.deps.limits.maxPageSize) {
      throw new ValidationError(`page_size must be at most ${this.deps.limits.maxPageSize}`);
    }
    // A page so far out that its offset is no longer an exact integer cannot be asked of the store.
    if (!Number.isSafeInteger(offset)) throw new ValidationError('page is too large');
  }

  private messages(inputs: readonly MessageInput[]): MessageInput[] {
    return checkMessages(inputs, this.deps.limits);
  }

  private appendPolicy(): AppendPolicy {
    return {
      maxMessagesPerConversation: this.deps.limits.maxMessagesPerConversation,
      sessionGapMs: this.deps.sessionGapMs,
    };
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }
}

function ancestorsOf(folder: string): string[] {
  const ancestors = [ROOT_FOLDER];
  const segments = folder.split('/').filter(Boolean);
  for (let i = 1; i <= segments.length; i += 1) ancestors.push(`/${segments.slice(0, i).join('/')}`);
  return ancestors;
}

