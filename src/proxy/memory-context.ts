import { CHARS_PER_TOKEN, estimateTokens } from '../domain/token-count.js';
import { sameTextKey, type AssembledContext, type ContextService, type SelectedMessage } from '../features/context/context.service.js';
import type { MemoryDirectives } from './memory-headers.js';

export const MEMORY_PREAMBLE = 'Memory from earlier conversations, kept by memsvc. Each entry is cited as ' +
  '[label | folder | date | role]. Use what is relevant to the request; it may be out of date.';
/** The assembler refuses longer queries; the start of a long message says what it is about. */
const MAX_QUERY_CHARS = 10_000;

export interface MemoryMessage {
  content: string;
  /** Estimated tokens of `content` (4 characters each); never more than the budget. */
  tokens: number;
  /** Memory entries cited. */
  entries: number;
}

/**
 * Assembles context for the newest user message and renders it as one system
 * message, best entries first. Entries whose text the request already carries
 * are left out; null when nothing is left.
 */
export async function assembleMemoryMessage(
  context: Pick<ContextService, 'assemble'>,
  query: string,
  directives: MemoryDirectives,
  alreadyInPrompt: readonly string[],
): Promise<MemoryMessage | null> {
  const assembled: AssembledContext = await context.assemble({
    query: query.slice(0, MAX_QUERY_CHARS),
    context_budget: directives.budget,
    preferred_labels: directives.preferredLabels,
    excluded_folders: directives.excludedFolders,
    format: 'text',
    include_metadata: true,
  });
  const present = new Set(alreadyInPrompt.map(sameTextKey));
  return renderMemory(assembled.messages.filter(({ hit }) => !present.has(sameTextKey(hit.content))), directives.budget);
}

/** One cited block per message. */
export const renderEntry = ({ hit }: SelectedMessage): string =>
  `[${hit.label} | ${hit.folder} | ${hit.timestamp.slice(0, 10)} | ${hit.role}]\n${hit.content}`;

/**
 * The system message within `budget` tokens. The assembler already packed the
 * entries into 85% of the budget; the preamble fits the 15% it keeps free. For
 * small budgets where it does not, the weakest entries go, and as a last resort
 * the text is cut, so the budget holds whatever happens.
 */
export function renderMemory(selected: readonly SelectedMessage[], budget: number): MemoryMessage | null {
  const entries = selected.map(renderEntry);
  while (entries.length > 0) {
    const content = [MEMORY_PREAMBLE, ...entries].join('\n\n');
    const tokens = estimateTokens(content);
    if (tokens <= budget) return { content, tokens, entries: entries.length };
    if (entries.length === 1) {
      const cut = [...content].slice(0, budget * CHARS_PER_TOKEN - 1).join('') + '…';
      return { content: cut, tokens: estimateTokens(cut), entries: 1 };
    }
    entries.pop();
  }
  return null;
}
