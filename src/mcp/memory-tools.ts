import { Type, type Static, type TSchema } from 'typebox';
import { ErrorCode, ValidationError } from '../domain/errors.js';
import type { ConversationService } from '../features/conversations/conversations.service.js';
import { MessageInput } from '../features/conversations/conversations.schemas.js';
import type { PruningService } from '../features/pruning/pruning.service.js';
import { SEARCH_MODES, SearchFilters } from '../features/search/search.schemas.js';
import type { SearchService } from '../features/search/search.service.js';
import { toSearchHitResponse } from '../features/search/search.mappers.js';
import { StringEnum } from '../http/schema-types.js';
import { renderContext, type ContextService } from '../features/context/context.service.js';
import type { SummariesService } from '../features/summaries/summaries.service.js';
import { estimateTokens } from '../domain/token-count.js';
import { toMessageResponse } from '../features/conversations/conversations.mappers.js';

export interface MemoryToolDeps {
  conversations: ConversationService;
  search: SearchService;
  pruning: PruningService;
  /** The tools an agent needs beyond the spec's seven: context, append, summaries, delete. */
  context?: ContextService;
  summaries?: SummariesService;
}

/** One tool: the same schema serves the REST form, the MCP servers and the tool listing. */
export interface MemoryTool<S extends TSchema = TSchema> {
  name: string;
  description: string;
  inputSchema: S;
  /** What `data` (MCP: structuredContent) holds on success. */
  outputSchema?: TSchema;
  run(input: Static<S>): Promise<Record<string, unknown>>;
}

const ConversationId = Type.String({ description: 'Conversation UUID' });

const StoreInput = Type.Object({
  label: Type.String({ description: 'Human-readable label' }),
  folder: Type.Optional(Type.String({ default: '/', description: 'Folder path such as /work/backend' })),
  messages: Type.Array(MessageInput, { description: 'Ordered role/content messages' }),
  importance_score: Type.Optional(Type.Integer({ minimum: 1, maximum: 10, default: 5 })),
}, { additionalProperties: false });

const SearchInput = Type.Object({
  query: Type.String({ minLength: 1, description: 'What to look for, in natural language' }),
  filters: Type.Optional(Type.Union([SearchFilters, Type.Null()], { default: null })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 10 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
  mode: Type.Optional(StringEnum(SEARCH_MODES, { description: 'hybrid (default), semantic or keyword' })),
}, { additionalProperties: false });

const UpdateInput = Type.Object({
  conversation_id: ConversationId,
  label: Type.Optional(Type.String()),
  folder: Type.Optional(Type.String()),
  status: Type.Optional(StringEnum(['active', 'archived'])),
  importance_score: Type.Optional(Type.Integer({ minimum: 1, maximum: 10 })),
}, { additionalProperties: false });

const PruneInput = Type.Object({
  threshold_days: Type.Optional(Type.Integer({ minimum: 0, maximum: 36_500, default: 30 })),
  importance_threshold: Type.Optional(Type.Number({ minimum: 0, maximum: 10, default: 5.0 })),
}, { additionalProperties: false });

const GetContextInput = Type.Object({ conversation_id: ConversationId }, { additionalProperties: false });

const ExportInput = Type.Object({
  conversation_id: ConversationId,
  format: Type.Optional(StringEnum(['json', 'markdown'], { default: 'json' })),
  include_metadata: Type.Optional(Type.Boolean({ default: true })),
}, { additionalProperties: false });

const StatsInput = Type.Object({
  folder: Type.Optional(Type.String({ description: 'Statistics of this folder subtree, broken down by folder' })),
  label: Type.Optional(Type.String({ description: 'Statistics of this label, broken down by label' })),
}, { additionalProperties: false });

const AssembleContextInput = Type.Object({
  query: Type.String({ minLength: 1, maxLength: 10_000, description: 'What the context is for: the question or task at hand' }),
  context_budget: Type.Optional(Type.Integer({ minimum: 100, maximum: 200_000, default: 2000, description: 'Tokens (4 characters each)' })),
  preferred_labels: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 100, default: [] })),
  excluded_folders: Type.Optional(Type.Array(Type.String(), { maxItems: 100, default: [] })),
}, { additionalProperties: false });
const AssembleContextOutput = Type.Object({
  context: Type.String({ description: 'Ready to put in a prompt; each message headed [label | folder | timestamp | role]' }),
  token_count: Type.Integer(),
  message_count: Type.Integer(),
  conversation_ids: Type.Array(Type.String()),
  sources: Type.Array(Type.Object({
    message_id: Type.String(), conversation_id: Type.String(), label: Type.String(), folder: Type.String(),
    timestamp: Type.String(), relevance_score: Type.Number(),
  })),
});

const AppendInput = Type.Object({
  conversation_id: ConversationId,
  messages: Type.Array(MessageInput, { minItems: 1, description: 'Messages to add at the end, in order' }),
}, { additionalProperties: false });
const AppendOutput = Type.Object({
  conversation_id: Type.String(),
  message_count: Type.Integer({ description: 'Messages in the conversation now' }),
  session_count: Type.Integer(),
  appended: Type.Array(Type.Object({ id: Type.String(), role: Type.String(), timestamp: Type.String() })),
});

const SummarizeInput = Type.Object({
  conversation_id: ConversationId,
  level: Type.Optional(StringEnum(['daily', 'weekly', 'monthly'], { default: 'daily', description: 'Window: the last 24 hours, 7 days or 28 days' })),
  refresh: Type.Optional(Type.Boolean({ default: false, description: 'Regenerate even when a stored summary still fits' })),
}, { additionalProperties: false });
const SummarizeOutput = Type.Object({
  conversation_id: Type.String(),
  level: Type.String(),
  summary: Type.String(),
  generated_at: Type.String(),
  window_start: Type.String(),
  window_end: Type.String(),
  source_count: Type.Integer(),
  word_count: Type.Integer(),
  cached: Type.Boolean(),
});

const DeleteInput = Type.Object({ conversation_id: ConversationId }, { additionalProperties: false });
const DeleteOutput = Type.Object({ conversation_id: Type.String(), deleted: Type.Boolean() });

const tool = <S extends TSchema>(definition: MemoryTool<S>): MemoryTool => definition as unknown as MemoryTool;

/** The spec's seven tools and the agent tools, over the feature services. */
export function buildMemoryTools(deps: MemoryToolDeps): MemoryTool[] {
  return [...specTools(deps), ...agentTools(deps)];
}

/** What an agent needs for the main job: the context for a prompt, and keeping the conversation up to date. */
function agentTools({ conversations, context, summaries }: MemoryToolDeps): MemoryTool[] {
  const tools: MemoryTool[] = [];
  if (context) {
    tools.push(tool({
      name: 'memory_assemble_context',
      description: 'Relevant past messages for a question or task, ranked and packed into a token budget, as prompt-ready text with sources.',
      inputSchema: AssembleContextInput,
      outputSchema: AssembleContextOutput,
      async run(input) {
        const assembled = await context.assemble({
          query: input.query, context_budget: input.context_budget ?? 2000, preferred_labels: input.preferred_labels ?? [],
          excluded_folders: input.excluded_folders ?? [], format: 'text',
        });
        const text = renderContext(assembled.messages, true);
        return {
          context: text,
          token_count: estimateTokens(text),
          message_count: assembled.messages.length,
          conversation_ids: [...new Set(assembled.messages.map((message) => message.hit.conversationId))],
          sources: assembled.messages.map(({ hit, score }) => ({
            message_id: hit.messageId, conversation_id: hit.conversationId, label: hit.label, folder: hit.folder,
            timestamp: hit.timestamp, relevance_score: score,
          })),
        };
      },
    }));
  }
  tools.push(tool({
    name: 'memory_append',
    description: 'Add messages to the end of an existing conversation (e.g. the latest exchange).',
    inputSchema: AppendInput,
    outputSchema: AppendOutput,
    async run(input) {
      const { conversation, messages } = await conversations.appendMessages(input.conversation_id, input.messages);
      return {
        conversation_id: conversation.id, message_count: conversation.messageCount, session_count: conversation.sessionCount,
        appended: messages.map(toMessageResponse).map((m) => ({ id: m.id, role: m.role, timestamp: m.timestamp })),
      };
    },
  }));
  if (summaries) {
    tools.push(tool({
      name: 'memory_summarize',
      description: 'A summary of a conversation over the last day, week or month (reused while nothing new arrived).',
      inputSchema: SummarizeInput,
      outputSchema: SummarizeOutput,
      async run(input) {
        const result = await summaries.summarize(input.conversation_id, input.level ?? 'daily', { refresh: input.refresh ?? false });
        return {
          conversation_id: result.conversationId, level: result.level, summary: result.summary, generated_at: result.generatedAt,
          window_start: result.windowStart, window_end: result.windowEnd, source_count: result.sourceCount,
          word_count: result.wordCount, cached: result.cached,
        };
      },
    }));
  }
  tools.push(tool({
    name: 'memory_delete',
    description: 'Delete a conversation with all its messages, for good. Prefer memory_update with status "archived" to hide it.',
    inputSchema: DeleteInput,
    outputSchema: DeleteOutput,
    async run(input) {
      await conversations.delete(input.conversation_id);
      return { conversation_id: input.conversation_id, deleted: true };
    },
  }));
  return tools;
}

/** The seven tools of the spec. */
function specTools({ conversations, search, pruning }: MemoryToolDeps): MemoryTool[] {
  return [
    tool({
      name: 'memory_store',
      description: 'Store a conversation (label, folder, messages) in long-term memory.',
      inputSchema: StoreInput,
      async run(input) {
        const created = await conversations.create({
          label: input.label, folder: input.folder ?? '/', messages: input.messages, importanceScore: input.importance_score ?? 5,
        });
        return {
          conversation_id: created.id, id: created.id, label: created.label, folder: created.folder,
          message_count: created.messageCount,
        };
      },
    }),
    tool({
      name: 'memory_search',
      description: 'Search stored messages by meaning and words; returns ranked hits with their conversation.',
      inputSchema: SearchInput,
      async run(input) {
        const result = await search.query({
          query: input.query, limit: input.limit ?? 10, offset: input.offset ?? 0, filters: input.filters, mode: input.mode,
        });
        return {
          query: input.query, total_results: result.total, limit: input.limit ?? 10, offset: input.offset ?? 0, mode: result.mode,
          results: result.hits.map(toSearchHitResponse),
        };
      },
    }),
    tool({
      name: 'memory_update',
      description: 'Change the label, folder, status (active/archived) or importance of a conversation.',
      inputSchema: UpdateInput,
      async run(input) {
        const updated = await conversations.update(input.conversation_id, {
          label: input.label, folder: input.folder, status: input.status, importanceScore: input.importance_score,
        });
        const fields = updated.map((field) => (field === 'importanceScore' ? 'importance_score' : field));
        return {
          conversation_id: input.conversation_id,
          updated_fields: fields,
          message: fields.length > 0 ? `Updated ${fields.join(', ')}` : 'Nothing to update',
        };
      },
    }),
    tool({
      name: 'memory_prune',
      description: 'Suggest idle, low-importance conversations to archive. Changes nothing.',
      inputSchema: PruneInput,
      async run(input) {
        const plan = await pruning.dryRun({ thresholdDays: input.threshold_days ?? 30, importanceThreshold: input.importance_threshold ?? 5 });
        return {
          threshold_days: plan.thresholdDays,
          importance_threshold: plan.importanceThreshold,
          total_suggestions: plan.total,
          estimated_token_savings: plan.estimatedTokenSavings,
          suggestions: plan.suggestions.map((s) => ({
            conversation_id: s.conversationId, conversation_label: s.conversationLabel, last_accessed: s.lastAccessed,
            message_count: s.messageCount, token_estimate: s.tokenEstimate, importance_score: s.importanceScore,
            preview: s.preview, recommendation: s.recommendation,
          })),
        };
      },
    }),
    tool({
      name: 'memory_get_context',
      description: 'Metadata of one conversation: label, status, folder, importance, counts, timestamps.',
      inputSchema: GetContextInput,
      async run(input) {
        const c = await conversations.get(input.conversation_id);
        return {
          conversation_id: c.id, label: c.label, status: c.status, folder: c.folder, importance_score: c.importanceScore,
          word_count: c.wordCount, session_count: c.sessionCount, message_count: c.messageCount,
          created_at: c.createdAt, updated_at: c.updatedAt,
        };
      },
    }),
    tool({
      name: 'memory_export',
      description: 'Export one conversation with its messages as JSON data or Markdown text.',
      inputSchema: ExportInput,
      async run(input) {
        const c = await conversations.get(input.conversation_id);
        const includeMetadata = input.include_metadata ?? true;
        const format = input.format ?? 'json';
        const messages = (await conversations.allMessages(c.id)).map((m) => ({
          role: m.role, content: m.content, timestamp: m.timestamp,
          ...(includeMetadata ? { metadata: m.metadata } : {}),
        }));
        const conversation = {
          id: c.id, label: c.label, folder: c.folder, status: c.status, importance_score: c.importanceScore,
          word_count: c.wordCount, session_count: c.sessionCount, created_at: c.createdAt, updated_at: c.updatedAt,
        };
        return {
          conversation, messages, format, include_metadata: includeMetadata,
          ...(format === 'markdown' ? { markdown: toMarkdown(conversation, messages, includeMetadata) } : {}),
        };
      },
    }),
    tool({
      name: 'memory_stats',
      description: 'Totals and average importance, overall or for one folder subtree or label (not both).',
      inputSchema: StatsInput,
      async run(input) {
        if (input.folder !== undefined && input.label !== undefined) {
          throw new ValidationError('Give folder or label, not both', ErrorCode.INVALID_FILTER);
        }
        const filter = {
          ...(input.folder !== undefined ? { folder: conversations.normalizeFolder(input.folder) } : {}),
          ...(input.label !== undefined ? { label: input.label } : {}),
        };
        const by = input.label !== undefined ? 'label' : 'folder';
        const groups = await conversations.groupStats(filter, by);
        const total = groups.reduce((sum, g) => sum + g.count, 0);
        const weighted = groups.reduce((sum, g) => sum + g.count * g.averageImportance, 0);
        const breakdown = groups.map((g) => ({
          [by]: g.key, count: g.count, average_importance: round2(g.averageImportance),
        }));
        return {
          total_conversations: total,
          average_importance: total > 0 ? round2(weighted / total) : 0,
          ...(by === 'label' ? { labels: breakdown } : { folders: breakdown }),
          ...filter,
        };
      },
    }),
  ];
}

const round2 = (value: number) => Math.round(value * 100) / 100;

function toMarkdown(
  conversation: { label: string; folder: string; status: string; importance_score: number; created_at: string },
  messages: Array<{ role: string; content: string; timestamp: string }>,
  includeMetadata: boolean,
): string {
  const lines = [`# ${conversation.label}`, ''];
  if (includeMetadata) {
    lines.push(`- folder: ${conversation.folder}`, `- status: ${conversation.status}`,
      `- importance: ${conversation.importance_score}`, `- created: ${conversation.created_at}`, '');
  }
  for (const message of messages) {
    lines.push(`## ${message.role}${includeMetadata ? ` (${message.timestamp})` : ''}`, '', message.content, '');
  }
  return lines.join('\n');
}
