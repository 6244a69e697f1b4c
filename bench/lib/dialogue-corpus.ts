import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createRng } from './prng.js';

/**
 * Real dialogue text at any size: the turns of the LoCoMo dev conversations (read from ../shared at run time, never
 * copied into the repo), recombined two at a time. Message i joins turn a(i) and turn b(i), a bijection of i below
 * turns², so every message is unique while its words, lengths and near-duplicates ("That's great!") are real
 * dialogue's. The questions are the data set's own, which were never used to build the corpus.
 */
export const DEFAULT_LOCOMO_PATH = fileURLToPath(new URL('../../../shared/datasets/locomo-dev.json', import.meta.url));

/** Folders with a known share of the conversations, for recall under a filter. */
export const SELECTIVE_FOLDERS = [
  { folder: '/dialogue/tenth', share: 0.1 },
  { folder: '/dialogue/hundredth', share: 0.01 },
  { folder: '/dialogue/thousandth', share: 0.001 },
] as const;

export interface DialogueConversation {
  label: string;
  folder: string;
  messages: Array<{ role: 'user' | 'assistant'; content: string; timestamp: string }>;
}

export interface DialogueCorpus {
  /** Distinct turns the messages are made of. */
  turns: number;
  /** The data set's questions (adversarial ones left out), in a seeded order. */
  questions: readonly string[];
  /** Conversation `index` (10 messages by default): the same on every call and in every process. */
  conversation(index: number): DialogueConversation;
}

interface LocomoSample { conversation: Record<string, unknown>; qa: Array<{ question: string; category: number }> }

/** A prime, so `index * STRIDE mod turns` visits every turn before repeating (turns is never a multiple of it). */
const STRIDE = 7919;
const DAY_MS = 86_400_000;

export function loadDialogueCorpus(options: { path?: string; seed?: number; messagesPerConversation?: number } = {}): DialogueCorpus {
  const path = options.path ?? DEFAULT_LOCOMO_PATH;
  if (!existsSync(path)) throw new Error(`real dialogue text needs ${path} (the LoCoMo dev set in ../shared/datasets)`);
  const samples = JSON.parse(readFileSync(path, 'utf8')) as LocomoSample[];
  const texts = samples.flatMap((sample) => Object.entries(sample.conversation)
    .filter(([key]) => /^session_\d+$/.test(key))
    .flatMap(([, turns]) => (turns as Array<{ text: string }>).map((turn) => turn.text.trim())))
    .filter((text) => text.length > 0);
  const rng = createRng(options.seed ?? 42);
  const order = shuffled(texts.map((_, i) => i), rng);
  const questions = shuffled(samples.flatMap((sample) => sample.qa.filter((qa) => qa.category !== 5).map((qa) => qa.question)), rng);
  const perConversation = options.messagesPerConversation ?? 10;
  const n = texts.length;
  const message = (i: number) => {
    const a = i % n;
    const b = (Math.floor(i / n) * STRIDE + a * 31 + 1) % n;
    return `${texts[order[a]!]} ${texts[order[b]!]}`;
  };
  const start = Date.UTC(2024, 0, 1);
  return {
    turns: n,
    questions,
    conversation(index) {
      const base = start + (index % 700) * DAY_MS + (index % 1440) * 60_000;
      return {
        label: `dialogue ${index % 500}`,
        folder: folderOf(index),
        messages: Array.from({ length: perConversation }, (_, j) => ({
          role: j % 2 === 0 ? 'user' as const : 'assistant' as const,
          content: message(index * perConversation + j),
          timestamp: new Date(base + j * 60_000).toISOString(),
        })),
      };
    },
  };
}

/** Conversation index → folder: exactly a tenth, a hundredth and a thousandth in the selective folders. */
export function folderOf(index: number): string {
  const r = index % 1000;
  if (r === 0) return '/dialogue/thousandth';
  if (r <= 10) return '/dialogue/hundredth';
  if (r <= 110) return '/dialogue/tenth';
  return `/dialogue/general/${r % 7}`;
}

function shuffled<T>(items: T[], rng: ReturnType<typeof createRng>): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(rng.next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
