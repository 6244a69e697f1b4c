import { createRng, deriveSeed, type Rng } from './prng.js';

/**
 * A deterministic synthetic corpus of conversations: conversation `index` of
 * seed `seed` is always the same, whichever process generates it (the bench
 * client for HTTP creates, the server for fast seeding). Messages are 20-60
 * words of topical English-like text, so later search benchmarks have
 * something meaningful to look for.
 */

export interface Topic {
  name: string;
  folders: readonly string[];
  labels: readonly string[];
  nouns: readonly string[];
  verbs: readonly string[];
  adjectives: readonly string[];
}

export const TOPICS: readonly Topic[] = [
  {
    name: 'backend',
    folders: ['/work/backend', '/work/backend/api', '/work/backend/database'],
    labels: ['api design', 'database migration', 'auth refactor', 'rate limiting', 'job queue', 'caching layer',
      'query tuning', 'error handling', 'service split', 'schema review'],
    nouns: ['endpoint', 'request', 'handler', 'index', 'query', 'table', 'migration', 'transaction', 'cache',
      'token', 'session', 'queue', 'worker', 'timeout', 'retry', 'payload', 'schema', 'connection', 'latency', 'replica'],
    verbs: ['validate', 'cache', 'retry', 'migrate', 'index', 'serialize', 'paginate', 'throttle', 'batch', 'deploy'],
    adjectives: ['slow', 'idempotent', 'concurrent', 'stale', 'nullable', 'sharded', 'transactional', 'async'],
  },
  {
    name: 'frontend',
    folders: ['/work/frontend', '/work/frontend/design-system'],
    labels: ['component library', 'state management', 'form validation', 'accessibility audit', 'bundle size',
      'dark mode', 'routing bug', 'render performance'],
    nouns: ['component', 'prop', 'hook', 'render', 'button', 'layout', 'stylesheet', 'bundle', 'route', 'form',
      'modal', 'state', 'event', 'selector', 'theme', 'breakpoint'],
    verbs: ['render', 'memoize', 'hydrate', 'style', 'debounce', 'lazy-load', 'refactor', 'animate'],
    adjectives: ['responsive', 'accessible', 'reactive', 'nested', 'controlled', 'flaky', 'hidden', 'dynamic'],
  },
  {
    name: 'ops',
    folders: ['/work/ops', '/work/ops/incidents'],
    labels: ['incident review', 'alerting rules', 'kubernetes upgrade', 'backup policy', 'ci pipeline',
      'log retention', 'capacity planning'],
    nouns: ['cluster', 'node', 'pod', 'alert', 'dashboard', 'pipeline', 'backup', 'volume', 'certificate',
      'deployment', 'metric', 'runbook', 'rollback', 'incident'],
    verbs: ['provision', 'scale', 'rotate', 'monitor', 'restore', 'drain', 'page', 'roll back'],
    adjectives: ['degraded', 'redundant', 'noisy', 'expired', 'healthy', 'saturated', 'regional'],
  },
  {
    name: 'cooking',
    folders: ['/personal/cooking', '/personal/cooking/baking'],
    labels: ['weeknight dinners', 'sourdough starter', 'meal prep', 'holiday menu', 'knife skills', 'spice blends'],
    nouns: ['recipe', 'dough', 'oven', 'sauce', 'onion', 'garlic', 'flour', 'butter', 'pan', 'broth', 'starter',
      'crust', 'marinade', 'skillet', 'herb'],
    verbs: ['simmer', 'knead', 'roast', 'season', 'whisk', 'proof', 'braise', 'chop'],
    adjectives: ['crispy', 'tender', 'savory', 'golden', 'tangy', 'fluffy', 'caramelized'],
  },
  {
    name: 'travel',
    folders: ['/personal/travel', '/personal/travel/japan'],
    labels: ['japan itinerary', 'packing list', 'train passes', 'hotel booking', 'visa questions', 'budget trip'],
    nouns: ['flight', 'hotel', 'train', 'itinerary', 'passport', 'luggage', 'museum', 'temple', 'ticket', 'station',
      'neighborhood', 'ferry', 'guidebook'],
    verbs: ['book', 'visit', 'pack', 'explore', 'reserve', 'transfer', 'wander'],
    adjectives: ['scenic', 'crowded', 'affordable', 'historic', 'quiet', 'overnight', 'rural'],
  },
  {
    name: 'finance',
    folders: ['/personal/finance'],
    labels: ['monthly budget', 'tax return', 'retirement plan', 'mortgage options', 'index funds'],
    nouns: ['budget', 'expense', 'account', 'fund', 'deduction', 'mortgage', 'rate', 'portfolio', 'invoice',
      'savings', 'receipt', 'pension'],
    verbs: ['save', 'invest', 'deduct', 'refinance', 'allocate', 'track', 'rebalance'],
    adjectives: ['fixed', 'variable', 'taxable', 'diversified', 'monthly', 'recurring'],
  },
  {
    name: 'research',
    folders: ['/research', '/research/papers', '/research/experiments'],
    labels: ['literature review', 'experiment log', 'paper draft', 'dataset cleaning', 'model evaluation',
      'reading notes'],
    nouns: ['paper', 'dataset', 'baseline', 'experiment', 'hypothesis', 'metric', 'sample', 'citation', 'model',
      'ablation', 'figure', 'benchmark'],
    verbs: ['evaluate', 'replicate', 'annotate', 'cite', 'compare', 'train', 'summarize'],
    adjectives: ['significant', 'noisy', 'robust', 'biased', 'reproducible', 'preliminary'],
  },
];

const FILLER = ['the', 'a', 'this', 'that', 'our', 'each', 'every', 'some', 'another'];
const CONNECTIVES = ['and', 'but', 'so', 'because', 'while', 'although', 'then', 'unless', 'before', 'after'];
const ADVERBS = ['quickly', 'carefully', 'usually', 'probably', 'still', 'really', 'again', 'first', 'later'];
const QUESTION_OPENERS = ['How should I', 'Can you help me', 'What is the best way to', 'Why does it fail when I',
  'Is it safe to', 'Should we', 'Could you explain how to'];
const ANSWER_OPENERS = ['You can', 'I would', 'The usual approach is to', 'It helps to', 'Try to', 'A good option is to',
  'Most teams'];

export interface GeneratedMessage {
  role: 'user' | 'assistant';
  content: string;
}

export interface GeneratedConversation {
  label: string;
  folder: string;
  importance_score: number;
  messages: GeneratedMessage[];
}

export interface CorpusOptions {
  seed: number;
  messagesPerConversation: number;
  minWords?: number;
  maxWords?: number;
  /** Share of conversations created pinned (importance 10). */
  pinnedShare?: number;
}

/** Every label the corpus can produce (labels repeat across conversations, as in real use). */
export function allLabels(): string[] {
  return TOPICS.flatMap((topic) => topic.labels);
}

export function generateConversation(index: number, options: CorpusOptions): GeneratedConversation {
  const rng = createRng(deriveSeed(options.seed, index));
  const topic = rng.pick(TOPICS);
  const minWords = options.minWords ?? 20;
  const maxWords = options.maxWords ?? 60;
  const messages: GeneratedMessage[] = [];
  for (let i = 0; i < options.messagesPerConversation; i += 1) {
    const role = i % 2 === 0 ? 'user' : 'assistant';
    messages.push({ role, content: generateMessage(rng, topic, role, rng.int(minWords, maxWords)) });
  }
  return {
    label: rng.pick(topic.labels),
    folder: rng.pick(topic.folders),
    importance_score: rng.chance(options.pinnedShare ?? 0.01) ? 10 : weightedImportance(rng),
    messages,
  };
}

/** 1-9, centred on the default 5. */
function weightedImportance(rng: Rng): number {
  return Math.min(9, Math.max(1, Math.round(5 + (rng.next() + rng.next() + rng.next() - 1.5) * 4)));
}

export function generateMessage(rng: Rng, topic: Topic, role: 'user' | 'assistant', words: number): string {
  const out: string[] = [];
  let sentenceStart = true;
  while (out.length < words) {
    const sentence = role === 'user' && sentenceStart && out.length === 0
      ? question(rng, topic)
      : statement(rng, topic, role);
    out.push(...sentence);
    sentenceStart = true;
  }
  out.length = words;
  let text = out.join(' ');
  if (!/[.?!]$/.test(text)) text += '.';
  return text;
}

function question(rng: Rng, topic: Topic): string[] {
  const words = [...rng.pick(QUESTION_OPENERS).split(' '), rng.pick(topic.verbs), rng.pick(FILLER),
    rng.pick(topic.adjectives), `${rng.pick(topic.nouns)}`, 'when', rng.pick(FILLER), `${rng.pick(topic.nouns)}?`];
  return words.flatMap((word) => word.split(' '));
}

function statement(rng: Rng, topic: Topic, role: 'user' | 'assistant'): string[] {
  // "You can <verb> ..." for some answers, "<Determiner> <noun> <verb>s ..." otherwise.
  const subject = role === 'assistant' && rng.chance(0.5)
    ? [rng.pick(ANSWER_OPENERS), rng.pick(topic.verbs)]
    : [capitalize(rng.pick(FILLER)), rng.pick(topic.nouns), `${rng.pick(['can', 'should', 'will', 'might'])}`,
      rng.pick(topic.verbs)];
  const words = [...subject, rng.pick(FILLER), rng.pick(topic.adjectives), rng.pick(topic.nouns)];
  if (rng.chance(0.6)) {
    words.push(rng.pick(CONNECTIVES), rng.pick(FILLER), rng.pick(topic.nouns), 'is', rng.pick(ADVERBS),
      rng.pick(topic.adjectives));
  }
  if (rng.chance(0.3)) words.push('with', rng.pick(FILLER), rng.pick(topic.nouns));
  const last = words.length - 1;
  words[last] = `${words[last]}.`;
  return words.join(' ').split(' ');
}

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}
