import { nlp } from './compromise-nlp.js';
import type { EntityExtractor, ExtractedEntities } from '../bridge.providers.js';
import { wink } from './text-analysis.js';

/**
 * Named entities without a model download: people, places and organizations
 * from compromise's tagger; dates from wink-nlp's entity recogniser (DATE:
 * "March 3rd, 2024", "next Friday", "2024-05-01"); emails and URLs by regular
 * expression. Emails and URLs are blanked out before the NLP passes so their
 * pieces are not mistaken for names. Every list is de-duplicated
 * case-insensitively, first spelling kept, in order of appearance.
 */
export const BUILTIN_EXTRACT_MODEL = 'builtin-entities-v1';

export function createBuiltinExtractor(): EntityExtractor {
  return { model: BUILTIN_EXTRACT_MODEL, extract: extractEntities };
}

const EMAIL = /(?<![\p{L}\p{N}._%+-])[A-Za-z0-9](?:[A-Za-z0-9._%+-]{0,63})@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,24}(?![\p{L}\p{N}-])/gu;
const URL_CANDIDATE = /\b(?:https?:\/\/|www\.)[^\s<>"'`{}|\\^]+/giu;
const TRAILING_PUNCTUATION = /[.,;:!?'"*_~]+$/;
const PAIRS: Record<string, string> = { ')': '(', ']': '[', '}': '{' };

export function extractEntities(text: string): ExtractedEntities {
  const emails = unique(matchAll(text, EMAIL));
  const urls = unique(matchAll(text, URL_CANDIDATE).map(cleanUrl).filter((u) => u.length > 'www.'.length + 2));

  // Blank out emails and URLs (same length keeps offsets meaningful) before NLP.
  // Sentence punctuation after a URL stays, so sentence boundaries survive.
  const plain = text
    .replace(URL_CANDIDATE, (m) => {
      const url = cleanUrl(m);
      return ' '.repeat(url.length) + m.slice(url.length);
    })
    .replace(EMAIL, (m) => ' '.repeat(m.length));

  // compromise slows down sharply on very long sentences, so it reads bounded chunks.
  const people: string[] = [];
  const places: string[] = [];
  const organizations: string[] = [];
  for (const chunk of chunks(plain, MAX_CHUNK_CHARS)) {
    const doc = nlp(chunk);
    people.push(...(doc.people().out('array') as string[]));
    places.push(...(doc.places().out('array') as string[]));
    organizations.push(...(doc.organizations().out('array') as string[]));
  }

  const w = wink();
  const dates: string[] = [];
  const entities = w.readDoc(plain).entities();
  for (let k = 0; k < entities.length(); k++) {
    const entity = entities.itemAt(k);
    if (entity.out(w.its.type) === 'DATE') dates.push(entity.out().replace(TRAILING_PUNCTUATION, '').trim());
  }

  return {
    people: cleanNames(people),
    places: cleanNames(places),
    organizations: cleanNames(organizations),
    dates: unique(dates.filter(Boolean)),
    emails,
    urls,
  };
}

const MAX_CHUNK_CHARS = 1000;

/** Pieces of at most `max` chars, cut after a line break or sentence end when possible, else at a space. */
export function chunks(text: string, max: number): string[] {
  const out: string[] = [];
  let rest = text;
  while (rest.length > max) {
    const window = rest.slice(0, max);
    let cut = Math.max(window.lastIndexOf('\n'), window.search(/[.!?]\s(?!.*[.!?]\s)/s) + 1);
    if (cut < max / 4) cut = window.lastIndexOf(' ');
    if (cut < max / 4) cut = max;
    out.push(rest.slice(0, cut));
    rest = rest.slice(cut);
  }
  if (rest.trim()) out.push(rest);
  return out;
}

function matchAll(text: string, pattern: RegExp): string[] {
  return [...text.matchAll(pattern)].map((m) => m[0]);
}

/** Trims punctuation that ends a sentence rather than the URL, and closing brackets without an opener. */
function cleanUrl(raw: string): string {
  let url = raw;
  for (;;) {
    const before = url;
    url = url.replace(TRAILING_PUNCTUATION, '');
    const last = url.at(-1);
    if (last && PAIRS[last]) {
      const opens = url.split(PAIRS[last]).length - 1;
      const closes = url.split(last).length - 1;
      if (closes > opens) url = url.slice(0, -1);
    }
    if (url === before) return url;
  }
}

function cleanNames(names: readonly string[]): string[] {
  return unique(
    names
      .map((name) =>
        name
          .replace(/\s+/g, ' ')
          .replace(/^[^\p{L}\p{N}]+/u, '')
          .replace(/['’]s$/u, '')
          .replace(/[^\p{L}\p{N}.)]+$/u, '')
          .replace(/(?<!\b\p{Lu})\.$/u, '') // sentence dot, but keep "Jr." style initials
          .trim(),
      )
      .filter((name) => /\p{L}/u.test(name)),
  );
}

function unique(values: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const value of values) {
    const key = value.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(value);
  }
  return out;
}
