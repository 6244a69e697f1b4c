import { nlp } from './compromise-nlp.js';
import type { ImportanceScorer } from '../bridge.providers.js';
import { countWords } from './text-analysis.js';

/**
 * Importance of a message, an integer 1..10, from content signals only
 * (deterministic, no model). Start at 3, then add:
 *
 * | signal                                                            | points |
 * |-------------------------------------------------------------------|--------|
 * | a decision ("we decided", "agreed", "let's go with", "approved")  | +2     |
 * | a commitment or deadline ("I will", "must", "deadline", "due by") | +2     |
 * | an explicit marker ("important", "remember", "don't forget")      | +1     |
 * | a date or time ("tomorrow", "Friday", "March 3", "2024-05-01")     | +1     |
 * | named people / places / organizations (1-2: +1, 3 or more: +2)   | +1..2  |
 * | contact details or links (email, URL, phone number)               | +1     |
 * | numbers, amounts, percentages                                     | +1     |
 * | a question                                                        | +1     |
 * | length: 30+ words +1, 120+ words +2; under 4 words -1             | -1..2  |
 *
 * A message that is only an acknowledgement or greeting ("ok", "thanks!",
 * "hi there") scores 1. Empty text scores 1. The sum is clamped to 1..10.
 * Entity tagging reads only the first 2,000 characters to bound the cost.
 */
export const BUILTIN_SCORE_MODEL = 'builtin-importance-v1';

export function createBuiltinScorer(): ImportanceScorer {
  return { model: BUILTIN_SCORE_MODEL, score: scoreImportance };
}

const DECISION = /\b(?:decided|decide to|decision|agreed|we(?:'ll| will) go with|let'?s go with|going with|settled on|chose|choose to|approved?|sign(?:ed)? off|finali[sz]ed?|conclusion|resolved|the plan is)\b/i;
const COMMITMENT = /\b(?:i(?:'ll| will)|we(?:'ll| will)|i promise|must|have to|need to|needs to|should be done|deadline|due (?:on|by|date)|by (?:end of|eod|eow|tomorrow|tonight|monday|tuesday|wednesday|thursday|friday|saturday|sunday|next)|no later than|action items?|to-?do|follow up|remind(?: me)?|schedule[ds]?|assigned to|responsible for|owner)\b/i;
const MARKER = /\b(?:important|importantly|critical|crucial|urgent|asap|priority|remember|keep in mind|note that|don'?t forget|do not forget|never|always|warning|password|key point)\b/i;
const DATE_OR_TIME = /\b(?:today|tonight|tomorrow|yesterday|(?:next|last|this) (?:week|month|year|quarter)|monday|tuesday|wednesday|thursday|friday|saturday|sunday|jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|jun(?:e)?|jul(?:y)?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|q[1-4]|\d{4}-\d{2}-\d{2}|\d{1,2}\/\d{1,2}(?:\/\d{2,4})?|\d{1,2}(?::\d{2})?\s?(?:am|pm))\b/i;
const CONTACT = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}|\bhttps?:\/\/\S+|\bwww\.\S+|\+?\d[\d\s().-]{7,}\d/;
const NUMBER = /[$€£¥]\s?\d|\d+(?:[.,]\d+)?\s?(?:%|percent|k\b|m\b|usd|eur|gb|mb|ms|hours?|days?|weeks?)|\b\d+\b/i;
const FILLER_ONLY = /^(?:(?:ok(?:ay)?|k|thanks?(?: you)?(?: so much| a lot)?|thx|ty|cool|great|nice|sure|yes|yeah|yep|no|nope|lol|haha|hi|hello|hey|bye|good ?bye|good (?:morning|night|evening)|got it|sounds good|np|no problem|you'?re welcome|perfect|awesome|alright|right|hmm+)(?: there| all| everyone)?[\s!.,:;)(-]*)+$/i;
const ENTITY_WINDOW_CHARS = 2000;

export function scoreImportance(text: string): number {
  const trimmed = text.trim();
  if (!trimmed || FILLER_ONLY.test(trimmed)) return 1;

  let score = 3;
  if (DECISION.test(trimmed)) score += 2;
  if (COMMITMENT.test(trimmed)) score += 2;
  if (MARKER.test(trimmed)) score += 1;
  if (DATE_OR_TIME.test(trimmed)) score += 1;
  const entities = countEntities(trimmed.slice(0, ENTITY_WINDOW_CHARS));
  if (entities >= 3) score += 2;
  else if (entities >= 1) score += 1;
  if (CONTACT.test(trimmed)) score += 1;
  if (NUMBER.test(trimmed)) score += 1;
  if (trimmed.includes('?')) score += 1;
  const words = countWords(trimmed);
  if (words >= 120) score += 2;
  else if (words >= 30) score += 1;
  else if (words < 4) score -= 1;

  return Math.min(10, Math.max(1, Math.round(score)));
}

function countEntities(text: string): number {
  const doc = nlp(text);
  const names = new Set<string>();
  for (const list of [doc.people(), doc.places(), doc.organizations()]) {
    for (const name of list.out('array') as string[]) names.add(name.toLowerCase().replace(/[^\p{L}\p{N} ]/gu, '').trim());
  }
  names.delete('');
  return names.size;
}
