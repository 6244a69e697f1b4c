import {
  DEFAULT_IMPORTANCE,
  PINNED_IMPORTANCE,
  type Conversation,
  type ConversationStatus,
  type MessageInput,
} from '../../domain/conversation.js';
import { ConversationNotFoundError, ErrorCode, LimitExceededError, ValidationError } from '../../domain/errors.js';
import { normalizeFolder, ROOT_FOLDER } from '../../domain/folder-path.js';
import { boundedJsonBytes } from '../../domain/json-bounds.js';
import { isUuid, newId } from '../../domain/ids.js';
import { hasControlCharacters, labelFilter } from '../../domain/label.js';
import { parseTimestamp } from '../../domain/timestamp.js';
import type { Clock } from '../../ports/clock.js';
import type {
  AppendPolicy,
  ConversationFilter,
  ConversationListRequest,
  ConversationPatch,
  ConversationStore,
  FolderCount,
} from '../../ports/conversation-store.js';

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
  constructor(private readonly deps: ConversationServiceDeps) {}

  async create(input: CreateConversationInput): Promise<Conversation> {
    const now = this.now();
    const conversation = await this.deps.store.create({
      id: input.id ?? newId(),
      label: this.label(input.label),
      folder: this.folder(input.folder ?? ROOT_FOLDER),
      importanceScore: input.importanceScore ?? DEFAULT_IMPORTANCE,
      messages: this.messages(input.messages, 0),
      now,
    }, this.appendPolicy());
    if (input.messages.length > 0) this.deps.onMessagesStored?.();
    return conversation;
  }

  /** A read by a client: records last access (for pruning). */
  async get(id: string): Promise<Conversation> {
    this.requireUuid(id);
    await this.deps.store.touch(id, this.now());
    return this.require(id);
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
  async count(filter: { label?: string; folder?: string }): Promise<{ count: number; label?: string; folder?: string }> {
    if (filter.label !== undefined && filter.folder !== undefined) {
      throw new ValidationError('Give label or folder, not both', ErrorCode.INVALID_FILTER);
    }
    const applied = this.filter(filter);
    return { count: await this.deps.store.count(applied), ...applied };
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
    const result = await this.deps.store.appendMessages(id, this.messages(inputs, 0), this.now(), this.appendPolicy());
    if (result === null) throw new ConversationNotFoundError(id);
    this.deps.onMessagesStored?.();
    return result;
  }

  /** Paging through messages is a read by a client: it records access, like get(). */
  async listMessages(id: string, page: { offset: number; limit: number }) {
    this.page(page);
    await this.require(id);
    await this.deps.store.touch(id, this.now());
    return this.deps.store.listMessages(id, page);
  }

  groupStats(filter: ConversationFilter, by: 'folder' | 'label') {
    return this.deps.store.groupStats(this.filter(filter), by);
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

  private filter(filter: ConversationFilter): ConversationFilter {
    return {
      ...filter,
      ...(filter.folder !== undefined ? { folder: this.folder(filter.folder) } : {}),
      ...(filter.label !== undefined ? { label: labelFilter(filter.label, 'label') } : {}),
    };
  }

  private label(label: string): string {
    const trimmed = label.trim();
    if (trimmed === '') throw new ValidationError('label must not be empty', ErrorCode.VALIDATION_ERROR, 'label');
    if (hasControlCharacters(trimmed)) throw new ValidationError('label must not contain control characters', ErrorCode.VALIDATION_ERROR, 'label');
    if (trimmed.length > this.deps.limits.maxLabelChars) {
      throw new ValidationError(`label is longer than ${this.deps.limits.maxLabelChars} characters`, ErrorCode.VALIDATION_ERROR, 'label');
    }
    return trimmed;
  }

  private folder(folder: string, field = 'folder'): string {
    return normalizeFolder(folder, {
      maxChars: this.deps.limits.maxFolderChars,
      maxDepth: this.deps.limits.maxFolderDepth,
    }, field);
  }

  private importance(score: number): number {
    if (!Number.isInteger(score) || score < 1 || score > 10) {
      throw new ValidationError('importance_score must be an integer from 1 to 10', ErrorCode.VALIDATION_ERROR, 'importance_score');
    }
    return score;
  }

  private page({ offset, limit }: { offset: number; limit: number }): void {
    if (limit > this.deps.limits.maxPageSize) {
      throw new ValidationError(`page_size must be at most ${this.deps.limits.maxPageSize}`, ErrorCode.VALIDATION_ERROR, 'page_size');
    }
    // A page so far out that its offset is no longer an exact integer cannot be asked of the store.
    if (!Number.isSafeInteger(offset)) throw new ValidationError('page is too large', ErrorCode.VALIDATION_ERROR, 'page');
  }

  private messages(inputs: readonly MessageInput[], offset: number): MessageInput[] {
    const { maxMessageChars, maxMessagesPerConversation, maxMetadataBytes } = this.deps.limits;
    if (inputs.length > maxMessagesPerConversation) {
      throw new LimitExceededError(ErrorCode.TOO_MANY_MESSAGES,
        `A conversation holds at most ${maxMessagesPerConversation} messages (${inputs.length} were sent)`, 'messages');
    }
    return inputs.map((input, index) => {
      const field = `messages[${offset + index}]`;
      if (characterCount(input.content, maxMessageChars) > maxMessageChars) {
        throw new LimitExceededError(ErrorCode.MESSAGE_TOO_LONG,
          `${field}.content is longer than ${maxMessageChars} characters`, `${field}.content`);
      }
      if (input.content.includes('\u0000')) throw new ValidationError(NUL_MESSAGE(`${field}.content`), ErrorCode.VALIDATION_ERROR, `${field}.content`);
      let timestamp: string | undefined;
      if (input.timestamp !== undefined) {
        const parsed = parseTimestamp(input.timestamp);
        if (parsed === null) throw new ValidationError(`${field}.timestamp is not an ISO 8601 date-time`, ErrorCode.VALIDATION_ERROR, `${field}.timestamp`);
        timestamp = parsed;
      }
      if (input.metadata != null && boundedJsonBytes(input.metadata, `${field}.metadata`) > maxMetadataBytes) {
        throw new ValidationError(`${field}.metadata is larger than ${maxMetadataBytes} bytes`, ErrorCode.VALIDATION_ERROR, `${field}.metadata`);
      }
      return { role: input.role, content: input.content, timestamp, metadata: input.metadata ?? null };
    });
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

/** Characters as people count them (code points); the UTF-16 length is an upper bound, so check it first. */
function characterCount(text: string, max: number): number {
  if (text.length <= max) return text.length;
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

function ancestorsOf(folder: string): string[] {
  const ancestors = [ROOT_FOLDER];
  const segments = folder.split('/').filter(Boolean);
  for (let i = 1; i <= segments.length; i += 1) ancestors.push(`/${segments.slice(0, i).join('/')}`);
  return ancestors;
}

/** No text a person writes holds U+0000, and PostgreSQL text cannot store it: refused on every driver alike. */
const NUL_MESSAGE = (field: string) => `${field} must not contain the NUL character (U+0000)`;
