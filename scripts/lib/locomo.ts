import type { ServiceClient } from '../../test/helpers/service-harness.js';

/**
 * Reading the LoCoMo data set (see ../shared/datasets/README.md) and loading
 * it through the API the same way for every evaluation: one conversation per
 * session in /locomo/<sample>, the speaker as the author mode says (content
 * "speaker: text" by default), the turn's dia_id in message metadata, turns a
 * minute apart from the session's date.
 */
export interface Turn { speaker: string; dia_id: string; text: string }

/**
 * How a turn's speaker is stored: prefix, content "speaker: text" (transcripts as clients stored them before
 * messages had names); name, content the bare text and the speaker as the message's name; none, the bare text alone.
 */
export const AUTHOR_MODES = ['prefix', 'name', 'none'] as const;
export type AuthorMode = (typeof AUTHOR_MODES)[number];

export function authorMode(value: string | undefined): AuthorMode {
  const mode = value ?? 'prefix';
  if (!(AUTHOR_MODES as readonly string[]).includes(mode)) throw new Error(`--authors takes ${AUTHOR_MODES.join(', ')}; not ${mode}`);
  return mode as AuthorMode;
}

/** A turn's content, and its name in name mode. */
export function authoredTurn(turn: Turn, mode: AuthorMode): { content: string; name?: string } {
  if (mode === 'prefix') return { content: `${turn.speaker}: ${turn.text}` };
  return mode === 'name' ? { content: turn.text, name: turn.speaker } : { content: turn.text };
}

export interface QA { question: string; evidence?: string[]; category: number }
export interface Sample { sample_id: string; conversation: Record<string, unknown>; qa: QA[] }
export interface Question { sample: Sample; text: string; category: number; evidence: Set<string> }

export const folderOf = (sample: Sample) => `/locomo/${sample.sample_id}`;

/** "1:56 pm on 8 May, 2023" -> that instant in UTC. */
export function sessionStart(text: string | undefined): Date | null {
  const match = /(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})/i.exec(text ?? '');
  if (!match) return null;
  const [, h, m, ampm, day, month, year] = match;
  let hour = Number(h) % 12;
  if (ampm!.toLowerCase() === 'pm') hour += 12;
  const parsed = new Date(`${month} ${day}, ${year} ${String(hour).padStart(2, '0')}:${m}:00 UTC`);
  return Number.isNaN(parsed.getTime()) ? null : parsed;
}

/** Evidence entries are sometimes "D1:3; D1:4" or "D1:3 D1:4": split them into single ids. */
export function evidenceIds(evidence: readonly string[] | undefined): string[] {
  return (evidence ?? []).flatMap((entry) => entry.match(/D\d+:\d+/g) ?? []);
}

export function sessionKeys(sample: Sample): string[] {
  return Object.keys(sample.conversation)
    .filter((key) => /^session_\d+$/.test(key))
    .sort((a, b) => Number(a.split('_')[1]) - Number(b.split('_')[1]));
}

/** Creates the sample's conversations through the API; returns the number of turns stored. */
export async function loadSample(stack: ServiceClient, sample: Sample, authors: AuthorMode = 'prefix'): Promise<number> {
  let turns = 0;
  for (const key of sessionKeys(sample)) {
    const list = sample.conversation[key] as Turn[];
    const start = sessionStart(sample.conversation[`${key}_date_time`] as string | undefined);
    const messages = list.map((turn, i) => ({
      role: 'user' as const,
      ...authoredTurn(turn, authors),
      metadata: { dia_id: turn.dia_id },
      ...(start ? { timestamp: new Date(start.getTime() + i * 60_000).toISOString() } : {}),
    }));
    const response = await stack.api('POST', '/api/v1/conversations', {
      label: `${sample.sample_id} ${key.replace('_', ' ')}`, folder: folderOf(sample), messages,
    });
    if (response.status !== 201) throw new Error(`create failed: ${response.status} ${JSON.stringify(response.body)}`);
    turns += messages.length;
  }
  return turns;
}

/** The questions with an answer in the conversation (category 5 is adversarial) and at least one evidence turn. */
export function questionsOf(samples: readonly Sample[]): Question[] {
  return samples.flatMap((sample) => sample.qa
    .filter((qa) => qa.category !== 5)
    .map((qa) => ({ sample, text: qa.question, category: qa.category, evidence: new Set(evidenceIds(qa.evidence)) }))
    .filter((question) => question.evidence.size > 0));
}
