import { ConversationNotFoundError } from '../../domain/errors.js';
import { isUuid } from '../../domain/ids.js';
import { cosine } from '../../domain/exact-search.js';
import type { ConversationStore } from '../../ports/conversation-store.js';
import type { EmbeddingProvider } from '../../ports/embedding-provider.js';
import type { LabelVectorReader } from '../../ports/label-vectors.js';
import type { LanguageModel, TextEntities } from '../../ports/language-model.js';
import type { Logger } from '../../ports/logger.js';
import { extractKeyPhrases } from './keyphrases.js';

export interface LabelSuggestion {
  label: string;
  confidence: number;
  isExisting: boolean;
  reason: string;
}

export type SuggestionSource = 'embeddings' | 'keyphrases' | 'entities' | 'llm';

export interface LabelSuggestions {
  conversationId: string;
  suggestions: LabelSuggestion[];
  sources: SuggestionSource[];
}

export interface LabelsServiceDeps {
  conversations: ConversationStore;
  vectors: LabelVectorReader;
  language: LanguageModel;
  /** Embeds the conversation on the fly when its messages have no stored vectors yet. */
  embedder: EmbeddingProvider;
  /** Ask the bridge's chat model too (bridge.chat.provider is not none). */
  useLlm: boolean;
  log: Logger;
}

const MAX_TEXT_CHARS = 100_000;
const CONVERSATION_VECTORS = 2000;
const VECTORS_PER_LABEL = 256;
const MIN_SIMILARITY = 0.2;
const EXISTING_LIMIT = 5;
const PHRASE_LIMIT = 5;
const LLM_EXCERPT_CHARS = 6000;
const LLM_KNOWN_LABELS = 40;

/**
 * Label suggestions, offline first:
 * - existing labels whose conversations are closest in meaning: cosine
 *   similarity between the mean vector of this conversation's messages and
 *   the mean vector of each label's messages (confidence = similarity);
 * - new labels from the conversation's key phrases and named entities
 *   (bridge /extract), confidence 0.25-0.7 by how much they recur;
 * - with a chat model on the bridge, its proposals are merged in.
 * The conversation's own current label is not suggested.
 */
export class LabelsService {
  constructor(private readonly deps: LabelsServiceDeps) {}

  async suggest(conversationId: string, limit = 10): Promise<LabelSuggestions> {
    if (!isUuid(conversationId)) throw new ConversationNotFoundError(conversationId);
    const conversation = await this.deps.conversations.get(conversationId);
    if (!conversation) throw new ConversationNotFoundError(conversationId);
    const messages = (await this.deps.conversations.listMessages(conversationId, { offset: 0, limit: 10_000 })).items;
    const text = joinWithin(messages.map((m) => m.content), MAX_TEXT_CHARS);

    const merged = new Map<string, LabelSuggestion>();
    const sources: SuggestionSource[] = [];
    const add = (suggestion: LabelSuggestion) => {
      const key = suggestion.label.toLowerCase();
      if (key === conversation.label.toLowerCase()) return;
      const existing = merged.get(key);
      if (!existing) {
        merged.set(key, { ...suggestion, confidence: clamp(suggestion.confidence) });
        return;
      }
      // Two independent signals for one label: the stronger one plus a bonus, existing spelling kept.
      merged.set(key, {
        label: existing.isExisting ? existing.label : suggestion.label,
        isExisting: existing.isExisting || suggestion.isExisting,
        confidence: clamp(Math.max(existing.confidence, suggestion.confidence) + 0.1),
        reason: `${existing.reason}; ${suggestion.reason}`,
      });
    };

    const existingLabels = await this.existingBySimilarity(conversationId, text, messages.length > 0);
    if (existingLabels.length > 0) sources.push('embeddings');
    for (const suggestion of existingLabels) add(suggestion);

    const known = new Map((await this.deps.vectors.labelUsage(10_000)).map((u) => [u.label.toLowerCase(), u]));
    const asLabel = (phrase: string, reason: string, confidence: number): LabelSuggestion => {
      const match = known.get(phrase.toLowerCase());
      return match
        ? { label: match.label, isExisting: true, confidence, reason }
        : { label: phrase, isExisting: false, confidence, reason };
    };

    const phrases = extractKeyPhrases(text, PHRASE_LIMIT);
    const topScore = phrases[0]?.score ?? 1;
    if (phrases.length > 0) sources.push('keyphrases');
    for (const phrase of phrases) {
      add(asLabel(phrase.phrase,
        `Key phrase of the conversation (${phrase.occurrences} occurrence${phrase.occurrences === 1 ? '' : 's'})`,
        0.25 + 0.45 * (phrase.score / topScore) * Math.min(1, phrase.occurrences / 3)));
    }

    const entities = await this.entities(text);
    if (entities.length > 0) sources.push('entities');
    for (const entity of entities) add(asLabel(entity.name, entity.reason, entity.confidence));

    if (this.deps.useLlm && text.trim() !== '') {
      const proposals = await this.askLlm(text, [...known.values()].slice(0, LLM_KNOWN_LABELS).map((u) => u.label));
      if (proposals.length > 0) sources.push('llm');
      for (const proposal of proposals) add(asLabel(proposal.label, proposal.reason, 0.75));
    }

    const suggestions = [...merged.values()]
      .map((s) => ({ ...s, confidence: Math.round(s.confidence * 1000) / 1000 }))
      .sort((a, b) => b.confidence - a.confidence || Number(b.isExisting) - Number(a.isExisting) || a.label.localeCompare(b.label))
      .slice(0, limit);
    return { conversationId, suggestions, sources };
  }

  private async existingBySimilarity(conversationId: string, text: string, hasMessages: boolean): Promise<LabelSuggestion[]> {
    let own = await this.deps.vectors.conversationVectors(conversationId, CONVERSATION_VECTORS);
    if (!own && hasMessages) {
      // Not embedded yet: embed the text now (only comparable when the model is the stored vectors' one).
      try {
        const batch = await this.deps.embedder.embed(chunk(text, 2000, 16));
        own = { model: batch.model, vectors: batch.vectors };
      } catch (error) {
        this.deps.log.warn({ err: error }, 'label suggestion: embedding the conversation failed');
      }
    }
    if (!own || own.vectors.length === 0) return [];
    const mean = meanVector(own.vectors);
    const centroids = await this.deps.vectors.labelCentroids(own.model, conversationId, VECTORS_PER_LABEL);
    return centroids
      .map((c) => ({ c, similarity: cosine(mean, c.centroid) }))
      .filter(({ similarity }) => similarity >= MIN_SIMILARITY)
      .sort((a, b) => b.similarity - a.similarity)
      .slice(0, EXISTING_LIMIT)
      .map(({ c, similarity }) => ({
        label: c.label,
        isExisting: true,
        confidence: similarity,
        reason: `Existing label of ${c.conversations} conversation${c.conversations === 1 ? '' : 's'} ` +
          `close in meaning (similarity ${similarity.toFixed(2)})`,
      }));
  }

  private async entities(text: string): Promise<Array<{ name: string; reason: string; confidence: number }>> {
    if (text.trim() === '') return [];
    let found: TextEntities;
    try {
      found = await this.deps.language.extractEntities(text);
    } catch (error) {
      this.deps.log.warn({ err: error }, 'label suggestion: entity extraction failed');
      return [];
    }
    const lower = text.toLowerCase();
    const kinds: Array<[keyof TextEntities, string]> = [['organizations', 'Organization'], ['places', 'Place'], ['people', 'Person']];
    const out: Array<{ name: string; reason: string; confidence: number }> = [];
    for (const [kind, noun] of kinds) {
      for (const name of found[kind].slice(0, 5)) {
        const clean = name.trim().replace(/[.,;:!?]+$/u, '');
        if (clean.length < 2 || clean.length > 60) continue;
        const mentions = Math.max(1, countOccurrences(lower, clean.toLowerCase()));
        out.push({
          name: clean,
          reason: `${noun} named in the conversation (${mentions} mention${mentions === 1 ? '' : 's'})`,
          confidence: 0.3 + 0.1 * Math.min(mentions, 4),
        });
      }
    }
    return out;
  }

  private async askLlm(text: string, knownLabels: string[]): Promise<Array<{ label: string; reason: string }>> {
    const lines = ['Suggest up to 5 short labels (1-3 words) that categorize the conversation below.'];
    if (knownLabels.length > 0) {
      lines.push(`Prefer one of these existing labels when it fits: ${knownLabels.map((l) => JSON.stringify(l)).join(', ')}.`);
    }
    lines.push('Answer with JSON only: {"labels":[{"label":"...","reason":"..."}]}', '', 'Conversation:', text.slice(0, LLM_EXCERPT_CHARS));
    const prompt = lines.join('\n');
    try {
      const { content, model } = await this.deps.language.chat([
        { role: 'system', content: 'You label conversations for a memory service. Reply with JSON only.' },
        { role: 'user', content: prompt },
      ], { maxTokens: 300 });
      return parseLlmLabels(content).map((p) => ({ label: p.label, reason: `Suggested by ${model}${p.reason ? `: ${p.reason}` : ''}` }));
    } catch (error) {
      this.deps.log.warn({ err: error }, 'label suggestion: the chat model gave no usable answer');
      return [];
    }
  }
}

/** Reads {"labels":[{label, reason}]} or a bare array of them (or of strings), tolerating prose around the JSON. */
export function parseLlmLabels(content: string): Array<{ label: string; reason: string }> {
  const start = content.search(/[[{]/u);
  if (start < 0) return [];
  const end = Math.max(content.lastIndexOf('}'), content.lastIndexOf(']'));
  let parsed: unknown;
  try {
    parsed = JSON.parse(content.slice(start, end + 1));
  } catch {
    return [];
  }
  const list = Array.isArray(parsed) ? parsed : (parsed as { labels?: unknown }).labels;
  if (!Array.isArray(list)) return [];
  return list.flatMap((item) => {
    const label = typeof item === 'string' ? item : (item as { label?: unknown })?.label;
    const reason = typeof item === 'object' && item !== null ? (item as { reason?: unknown }).reason : undefined;
    if (typeof label !== 'string' || label.trim() === '' || label.length > 200) return [];
    return [{ label: label.trim(), reason: typeof reason === 'string' ? reason.trim() : '' }];
  }).slice(0, 5);
}

function meanVector(vectors: readonly Float32Array[]): Float32Array {
  const mean = new Float32Array(vectors[0]!.length);
  for (const vector of vectors) for (let i = 0; i < mean.length; i += 1) mean[i]! += vector[i] ?? 0;
  return mean.map((value) => value / vectors.length);
}

const clamp = (value: number) => Math.min(1, Math.max(0, value));

function joinWithin(texts: readonly string[], maxChars: number): string {
  let out = '';
  for (const text of texts) {
    if (out.length >= maxChars) break;
    out += (out ? '\n' : '') + text;
  }
  return out.slice(0, maxChars);
}

function chunk(text: string, size: number, max: number): string[] {
  const pieces: string[] = [];
  for (let i = 0; i < text.length && pieces.length < max; i += size) pieces.push(text.slice(i, i + size));
  return pieces;
}

function countOccurrences(haystack: string, needle: string): number {
  if (needle === '') return 0;
  let count = 0;
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + needle.length)) count += 1;
  return count;
}
