import { ForbiddenError } from '../domain/errors.js';
import { canRead, canWrite, visibleSubtrees, type Scope } from '../domain/scope.js';
import type { ContextReader } from '../ports/context-reader.js';
import type { ConversationArchive } from '../ports/conversation-archive.js';
import type { ConversationStore } from '../ports/conversation-store.js';
import type { EmbeddingQueue } from '../ports/embedding-queue.js';
import type { LabelVectorReader } from '../ports/label-vectors.js';
import type { MessageActivityReader } from '../ports/message-activity-reader.js';
import type { MessageSearchReader } from '../ports/message-search.js';
import type { PruningReader } from '../ports/pruning-reader.js';
import type { Storage } from '../ports/storage.js';
import type { SummaryStore } from '../ports/summary-store.js';
import type { VectorSearch } from '../ports/vector-search.js';

/** Any filter with a folder subtree: search, conversation and archive filters. */
interface FolderFiltered { folder?: string; within?: readonly string[] }

/**
 * The storage a tenant sees: the same ports, with the scope compiled into every read (the drivers turn `within`
 * into SQL and vector filters) and every write checked against the write grants. The services a request uses are
 * built over this, so no route or feature filters anything itself, and none can forget to.
 *
 * A conversation outside the grants is absent (null, false, empty): the services answer 404 exactly as for a
 * missing one. A write to one the key can see but not change, or into a folder outside its write grants, is 403.
 */
export function scopeStorage(storage: Storage, scope: Scope): Storage {
  if (scope.admin) return storage;
  const inner = storage.conversations;

  /** The filter narrowed to what the scope sees: one visible subtree becomes the plain folder filter. */
  const narrow = <F extends FolderFiltered>(filter: F): F => {
    const visible = visibleSubtrees(scope, filter.folder);
    if (visible === null) return filter;
    if (visible.length === 1) return { ...filter, folder: visible[0] };
    return { ...filter, within: visible };
  };
  /** Every subtree the scope sees, or undefined when that is everything. */
  const everywhere = visibleSubtrees(scope) ?? undefined;

  const visibleFolder = async (id: string): Promise<string | null> => {
    const conversation = await inner.get(id);
    return conversation && canRead(scope, conversation.folder) ? conversation.folder : null;
  };
  /** The conversation's folder when the scope may change it; null when it does not see it; 403 when read-only. */
  const writableFolder = async (id: string): Promise<string | null> => {
    const folder = await visibleFolder(id);
    if (folder !== null) requireWrite(scope, folder);
    return folder;
  };

  const conversations: ConversationStore = {
    create: async (input, policy) => {
      requireWrite(scope, input.folder);
      return inner.create(input, policy);
    },
    get: async (id) => {
      const conversation = await inner.get(id);
      return conversation && canRead(scope, conversation.folder) ? conversation : null;
    },
    list: (request) => inner.list({ ...request, filter: narrow(request.filter) }),
    count: (filter) => inner.count(narrow(filter)),
    update: async (id, patch, now) => {
      if (await writableFolder(id) === null) return false;
      if (patch.folder !== undefined) requireWrite(scope, patch.folder);
      return inner.update(id, patch, now);
    },
    setStatusMany: async (ids, status, now) => {
      const folders = await Promise.all(ids.map(visibleFolder));
      const unknown = ids.filter((_, i) => folders[i] === null);
      if (unknown.length > 0) return unknown;
      for (const folder of folders) requireWrite(scope, folder!);
      return inner.setStatusMany(ids, status, now);
    },
    delete: async (id) => (await writableFolder(id) === null ? null : inner.delete(id)),
    appendMessages: async (id, messages, now, policy) =>
      (await writableFolder(id) === null ? null : inner.appendMessages(id, messages, now, policy)),
    listMessages: async (id, page) =>
      (await visibleFolder(id) === null ? { items: [], total: 0 } : inner.listMessages(id, page)),
    touch: (id, now) => inner.touch(id, now),
    folderCounts: () => inner.folderCounts(everywhere),
    groupStats: (filter, by) => inner.groupStats(narrow(filter), by),
    totals: () => inner.totals(everywhere),
    ping: () => inner.ping(),
    close: async () => {},
  };

  const search: MessageSearchReader = {
    fullText: (query, filter, limit, options) => storage.search.fullText(query, narrow(filter), limit, options),
    neighbours: (keys, filter) => storage.search.neighbours(keys, narrow(filter)),
    // Keys come from the scoped rankings; the folder check is a second wall, not the filter.
    hydrate: async (keys) => (await storage.search.hydrate(keys)).filter((hit) => canRead(scope, hit.folder)),
  };

  const context: ContextReader = {
    pinnedMessageKeys: (filter, minImportance, limit) => storage.context.pinnedMessageKeys(narrow(filter), minImportance, limit),
    recentMessageKeys: (filter, since, limit) => storage.context.recentMessageKeys(narrow(filter), since, limit),
  };

  // A summary is made only by summarize, which stores it: a write on its conversation, at every step.
  const summaries: SummaryStore = {
    messageKeysInWindow: async (id, start, end) =>
      (await writableFolder(id) === null ? [] : storage.summaries.messageKeysInWindow(id, start, end)),
    messagesInWindow: async (id, start, end, limit) =>
      (await writableFolder(id) === null ? [] : storage.summaries.messagesInWindow(id, start, end, limit)),
    find: async (id, level, hash) => (await writableFolder(id) === null ? null : storage.summaries.find(id, level, hash)),
    save: async (summary, keep) => {
      if (await writableFolder(summary.conversationId) === null) return;
      await storage.summaries.save(summary, keep);
    },
  };

  const pruning: PruningReader = {
    idleConversations: (query) => storage.pruning.idleConversations({ ...query, within: everywhere }),
  };

  const labelVectors: LabelVectorReader = {
    conversationVectors: async (id, limit) =>
      (await visibleFolder(id) === null ? null : storage.labelVectors.conversationVectors(id, limit)),
    labelCentroids: (model, exclude, perLabel) => storage.labelVectors.labelCentroids(model, exclude, perLabel, everywhere),
    labelUsage: (limit) => storage.labelVectors.labelUsage(limit, everywhere),
  };

  const archive: ConversationArchive = {
    page: (filter, after, limit) => storage.archive.page(narrow(filter), after, limit),
    importAll: async (imported, onConflict) => {
      for (const conversation of imported) requireWrite(scope, conversation.folder);
      // An id that exists outside the grants is never written over (nor renamed onto).
      if (onConflict === 'replace') {
        for (const conversation of imported) {
          const existing = await inner.get(conversation.id);
          if (existing && !canWrite(scope, existing.folder)) {
            throw new ForbiddenError(`Conversation ${conversation.id} exists outside this key's write grants`);
          }
        }
      }
      return storage.archive.importAll(imported, onConflict);
    },
  };

  const activity: MessageActivityReader = {
    messagesPerDay: (since) => storage.activity.messagesPerDay(since, everywhere),
  };

  const embeddings: EmbeddingQueue = {
    ...bind(storage.embeddings),
    counts: () => storage.embeddings.counts(everywhere),
    pendingCount: () => storage.embeddings.pendingCount(everywhere),
    resetAll: async () => { throw new ForbiddenError('Rebuilding embeddings needs an admin key'); },
  };

  const vectorSearch = (localIndex: Parameters<Storage['vectorSearch']>[0]): VectorSearch => {
    const vectors = storage.vectorSearch(localIndex);
    return { nearest: (vector, filter, k) => vectors.nearest(vector, narrow(filter), k) };
  };

  return {
    driver: storage.driver,
    conversations, embeddings, search, context, summaries, pruning, labelVectors, archive, activity,
    keys: storage.keys,
    openLocalIndex: storage.openLocalIndex,
    vectorSearch,
    close: async () => {},
  };
}

function requireWrite(scope: Scope, folder: string): void {
  if (!canWrite(scope, folder)) throw new ForbiddenError(`This key may not write to ${folder}`);
}

/** The queue's methods bound to it, for a view that replaces some of them. */
function bind(queue: EmbeddingQueue): EmbeddingQueue {
  return {
    claimPending: queue.claimPending.bind(queue),
    release: queue.release.bind(queue),
    complete: queue.complete.bind(queue),
    recordFailure: queue.recordFailure.bind(queue),
    counts: queue.counts.bind(queue),
    pendingCount: queue.pendingCount.bind(queue),
    oldestPendingTimestamp: queue.oldestPendingTimestamp.bind(queue),
    resetAll: queue.resetAll.bind(queue),
    vectorKeys: queue.vectorKeys.bind(queue),
    vectorsByKey: queue.vectorsByKey.bind(queue),
    recordedModel: queue.recordedModel.bind(queue),
    recordModel: queue.recordModel.bind(queue),
  };
}
