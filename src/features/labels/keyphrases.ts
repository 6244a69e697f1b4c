/**
 * Key phrases of a text without a model: candidates are n-grams of up to three
 * content words within runs between stop words and punctuation (RAKE's idea);
 * a phrase scores by how often it occurs times the mean frequency of its words,
 * with a bonus per extra word, so recurring topics beat one-off words. A longer
 * phrase that recurs with most uses of a shorter one replaces it
 * ("database migration" rather than "database").
 */
export interface KeyPhrase {
  phrase: string;
  occurrences: number;
  score: number;
}

const STOP_WORDS = new Set((
  'a about above after again against all also am an and any are as at be because been before being below between both ' +
  'but by can could did do does doing done down during each else even ever every few for from further get gets got ' +
  'had has have having he her here hers herself him himself his how however i if in into is it its itself just let ' +
  'like me might more most much must my myself need needs no nor not now of off on once one only or other our ours ' +
  'ourselves out over own please really same say said says she should since so some still such than thank thanks ' +
  'that the their theirs them themselves then there these they this those though through to too under until up upon ' +
  'us use used using very via want wants was we well were what when where whether which while who whom whose why will ' +
  'with within without would yeah yes yet you your yours yourself yourselves ok okay sure hi hello hey maybe lot lots ' +
  'thing things something anything nothing everything way make makes made going go goes know think see look new good ' +
  'great first last next time today tomorrow yesterday try tried help right left back many another around already ' +
  'always never sometimes often usually able sorry im ive dont doesnt didnt cant wont isnt arent thats theres youre'
).split(' '));

const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu;
const MAX_PHRASE_WORDS = 3;

export function extractKeyPhrases(text: string, limit = 5): KeyPhrase[] {
  const runs: string[][] = [];
  // Punctuation that ends a clause also ends a phrase.
  for (const clause of text.toLowerCase().split(/[.,;:!?()[\]{}"“”<>|/\\\n\r\t]+/u)) {
    let run: string[] = [];
    for (const match of clause.matchAll(WORD)) {
      const word = match[0].replace(/['’]s$/u, '').replace(/['’-]+$/u, '');
      if (isContentWord(word)) {
        run.push(word);
      } else if (run.length > 0) {
        runs.push(run);
        run = [];
      }
    }
    if (run.length > 0) runs.push(run);
  }

  const wordFrequency = new Map<string, number>();
  for (const run of runs) for (const word of run) wordFrequency.set(word, (wordFrequency.get(word) ?? 0) + 1);
  const occurrences = new Map<string, number>();
  for (const run of runs) {
    // Every contiguous n-gram of up to three words, counted once per place it occurs.
    for (let i = 0; i < run.length; i += 1) {
      for (let n = 1; n <= MAX_PHRASE_WORDS && i + n <= run.length; n += 1) {
        const phrase = run.slice(i, i + n).join(' ');
        occurrences.set(phrase, (occurrences.get(phrase) ?? 0) + 1);
      }
    }
  }

  const scored = [...occurrences].map(([phrase, count]): KeyPhrase => {
    const words = phrase.split(' ');
    const meanFrequency = words.reduce((sum, word) => sum + (wordFrequency.get(word) ?? 0), 0) / words.length;
    return { phrase, occurrences: count, score: count * meanFrequency * (1 + 0.5 * (words.length - 1)) };
  }).sort((a, b) => b.score - a.score || b.phrase.split(' ').length - a.phrase.split(' ').length || a.phrase.localeCompare(b.phrase));

  const picked: KeyPhrase[] = [];
  const wordsOf = (phrase: KeyPhrase) => phrase.phrase.split(' ');
  const covered = (words: string[]) => picked.some((p) => words.every((word) => wordsOf(p).includes(word)));
  for (const candidate of scored) {
    if (picked.length >= limit) break;
    // A longer phrase that recurs with most of this one's uses is the better label ("database migration" over "database").
    const words = wordsOf(candidate);
    const longer = scored.find((other) => other.occurrences >= Math.max(2, candidate.occurrences / 2)
      && wordsOf(other).length > words.length && words.every((word) => wordsOf(other).includes(word)));
    const choice = longer ?? candidate;
    if (covered(wordsOf(choice))) continue;
    // ... and a rarer phrase around one already picked adds nothing.
    if (picked.some((p) => p.occurrences > choice.occurrences && wordsOf(p).every((word) => wordsOf(choice).includes(word)))) continue;
    picked.push(choice);
  }
  return picked;
}

function isContentWord(word: string): boolean {
  if (word.length < 3 || STOP_WORDS.has(word) || STOP_WORDS.has(word.replace(/['’]/gu, ''))) return false;
  return !/^\d+$/u.test(word);
}
