import type { ChatProvider, SummaryProvider } from './bridge.providers.js';
import { completionText } from './openai/openai-chat.js';

/**
 * Summaries written by a chat model (Ollama or an OpenAI-compatible server).
 * Long inputs are summarized map-reduce style: passages are packed into
 * chunks of at most `maxInputChars`, each chunk is summarized, then the
 * partial summaries are summarized together. The answer is trimmed at a
 * sentence boundary so it exceeds `targetWords` by at most one sentence.
 */
export interface LlmSummarizerOptions {
  chat: ChatProvider;
  /** Model asked for summaries (may differ from the chat default). */
  model: string;
  /** Largest prompt payload per call; default 24,000 chars (~6k tokens). */
  maxInputChars?: number;
}

const SYSTEM_PROMPT =
  'You write faithful, concise summaries of conversations and notes. Keep decisions, commitments, deadlines, names, ' +
  'numbers and open questions. Do not invent facts. Reply with the summary text only: no preamble, no title, no lists.';

export function createLlmSummarizer(options: LlmSummarizerOptions): SummaryProvider {
  const maxInputChars = options.maxInputChars ?? 24_000;
  const { chat, model } = options;

  async function summarizeChunk(passages: readonly string[], targetWords: number, signal?: AbortSignal): Promise<string> {
    const numbered = passages.map((p, i) => `[${i + 1}] ${p}`).join('\n\n');
    const completion = await chat.complete(
      {
        model,
        messages: [
          { role: 'system', content: SYSTEM_PROMPT },
          { role: 'user', content: `Summarize the following passages in about ${targetWords} words.\n\nPassages:\n${numbered}` },
        ],
        temperature: 0.2,
        max_tokens: Math.ceil(targetWords * 2) + 64,
      },
      { signal },
    );
    return cleanSummary(completionText(completion));
  }

  async function summarize(texts: readonly string[], targetWords: number, signal?: AbortSignal, depth = 0): Promise<string> {
    const passages = texts.map((t) => t.trim()).filter(Boolean);
    if (passages.length === 0) return '';
    // After two reduce rounds, squeeze whatever is left into one prompt so this always ends.
    const chunks = depth >= 2 ? [passages.map((p) => p.slice(0, Math.floor(maxInputChars / passages.length)))] : pack(passages, maxInputChars);
    if (chunks.length === 1) return trimToWords(await summarizeChunk(chunks[0]!, targetWords, signal), targetWords);
    const partialTarget = Math.max(60, Math.ceil(targetWords / 2));
    const partials: string[] = [];
    for (const chunk of chunks) partials.push(await summarizeChunk(chunk, partialTarget, signal));
    return summarize(partials, targetWords, signal, depth + 1);
  }

  return {
    provider: chat.provider,
    model,
    summarize: (texts, targetWords, call) => summarize(texts, targetWords, call?.signal),
    check: () => chat.check(),
  };
}

/** Groups passages, in order, into chunks whose total length stays under `max` (long passages are cut). */
function pack(passages: readonly string[], max: number): string[][] {
  const chunks: string[][] = [];
  let current: string[] = [];
  let size = 0;
  for (const raw of passages) {
    const passage = raw.length > max ? raw.slice(0, max) : raw;
    if (size + passage.length > max && current.length > 0) {
      chunks.push(current);
      current = [];
      size = 0;
    }
    current.push(passage);
    size += passage.length;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

function cleanSummary(text: string): string {
  return text
    .replace(/<think>[\s\S]*?<\/think>/g, '')
    .replace(/^\s*(?:summary|here is (?:a|the) summary[^:]*)\s*:\s*/i, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Keeps whole sentences while under `target` words (so at most one sentence over). */
export function trimToWords(text: string, target: number): string {
  const sentences = text.match(/[^.!?]+(?:[.!?]+["')\]]*|$)\s*/g) ?? [text];
  let out = '';
  let words = 0;
  for (const sentence of sentences) {
    if (words >= target) break;
    out += sentence;
    words += sentence.split(/\s+/).filter(Boolean).length;
  }
  return out.trim();
}
