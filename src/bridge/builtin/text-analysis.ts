import { createRequire } from 'node:module';
import winkNLP from 'wink-nlp';
import type model from 'wink-eng-lite-web-model';
import { stemmer } from 'stemmer';

/**
 * Shared text plumbing for the builtin providers: one lazily created
 * wink-nlp instance (English lite model, ~100 ms to load, no downloads),
 * sentence splitting and stemmed content terms. The model (CommonJS) is
 * required at the first use too: imported, it was evaluated at the bridge's
 * start-up (~0.2 s) whether or not a summary was ever asked for.
 */
type Wink = ReturnType<typeof winkNLP>;
let instance: Wink | undefined;

export function wink(): Wink {
  instance ??= winkNLP(createRequire(import.meta.url)('wink-eng-lite-web-model') as typeof model);
  return instance;
}

export interface Sentence {
  /** The sentence as written, whitespace collapsed. */
  text: string;
  /** Index of the passage it came from. */
  passage: number;
  /** Position among all sentences of all passages. */
  position: number;
  words: number;
  /** Stemmed, lower-cased content words (stop words and punctuation removed). */
  terms: string[];
}

const HAS_LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/** Words as a reader counts them: whitespace-separated runs holding a letter or digit. */
export function countWords(text: string): number {
  let n = 0;
  for (const piece of text.split(/\s+/)) if (HAS_LETTER_OR_DIGIT.test(piece)) n++;
  return n;
}

/**
 * Splits passages into sentences. Lines are split first (chat messages use line
 * breaks as sentence ends: lists, short replies), then each line by wink-nlp.
 */
export function splitSentences(passages: readonly string[]): Sentence[] {
  const nlp = wink();
  const its = nlp.its;
  const out: Sentence[] = [];
  passages.forEach((passage, passageIndex) => {
    for (const line of passage.split(/\r?\n+/)) {
      const trimmed = line.replace(/\s+/g, ' ').trim();
      if (!HAS_LETTER_OR_DIGIT.test(trimmed)) continue;
      const doc = nlp.readDoc(trimmed);
      const sentences = doc.sentences();
      for (let k = 0; k < sentences.length(); k++) {
        const sentence = sentences.itemAt(k);
        const text = sentence.out().replace(/\s+/g, ' ').trim();
        if (!HAS_LETTER_OR_DIGIT.test(text)) continue;
        const normals = sentence.tokens().out(its.normal) as string[];
        const types = sentence.tokens().out(its.type) as string[];
        const stops = sentence.tokens().out(its.stopWordFlag) as unknown as boolean[];
        const terms: string[] = [];
        normals.forEach((normal, i) => {
          if (stops[i]) return;
          const type = types[i];
          if (type !== 'word' && type !== 'number' && type !== 'hashtag') return;
          if (type === 'word' && normal.length < 2) return;
          terms.push(type === 'word' ? stemmer(normal) : normal);
        });
        out.push({ text, passage: passageIndex, position: out.length, words: countWords(text), terms });
      }
    }
  });
  return out;
}

/** Stemmed content terms of a free text (same rules as Sentence.terms). */
export function contentTerms(text: string): string[] {
  return splitSentences([text]).flatMap((s) => s.terms);
}
