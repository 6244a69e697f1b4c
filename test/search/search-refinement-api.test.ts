import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { DeepPartial } from '../../src/config/config.loader.js';
import type { Config } from '../../src/config/config.schema.js';
import { type RunningService, startService } from '../helpers/service-harness.js';

/**
 * The second ranking stage of hybrid search (docs/search.md) through the real controller and bridge:
 * with the default config and with search.author_weight and search.session_weight at 0. Session evidence
 * has its unit test (src/ranking/session-evidence.test.ts).
 */

/** A message is its content, or its content with its author's name. */
interface Session { label: string; messages: Array<string | { name: string; content: string }>; at?: string }
type Pair = Record<'refined' | 'plain', RunningService>;

/** Two services over the same sessions: the default ranking, and one with `plainSearch` switched off. */
async function startPair(sessions: readonly Session[], plainSearch: DeepPartial<Config>['search']): Promise<Pair> {
  const pair = {} as Pair;
  for (const name of ['refined', 'plain'] as const) {
    const stack = await startService({ bridge: 'builtin', overrides: name === 'plain' ? { search: plainSearch } : {} });
    pair[name] = stack;
    for (const session of sessions) {
      const created = await stack.api('POST', '/api/v1/conversations', {
        label: session.label, folder: '/chat',
        messages: session.messages.map((message) => ({
          role: 'user', ...(typeof message === 'string' ? { content: message } : message), ...(session.at ? { timestamp: session.at } : {}),
        })),
      });
      assert.equal(created.status, 201);
    }
    await stack.waitForEmbeddings();
  }
  return pair;
}

const stopPair = async (pair: Pair) => { await Promise.all(Object.values(pair).map((stack) => stack.stop())); };

type Hit = { content: string; metadata: { name?: string | null } };
/** The hybrid hits of `query` from one stack of the pair, best first. */
async function hybridHits(stack: RunningService, query: string): Promise<Hit[]> {
  const response = await stack.api('POST', '/api/v1/query', { query, mode: 'hybrid', limit: 8 });
  assert.equal(response.status, 200);
  return (response.body as { results: Hit[] }).results;
}
describe('hybrid search refinement: named authors', () => {

  const transcript = [
    { label: 'saturday', messages: [
      'Caroline: Melanie, your painting of the lake is gorgeous, you should paint more!',
      'Melanie: Thanks! I painted a horse last week as well.',
      'Caroline: We hiked up to the waterfall on Saturday morning.',
    ] },
    { label: 'monday', messages: [
      'Melanie: The kids want a pet hamster.',
      'Caroline: Work was busy, lots of meetings about the waterfall project budget.',
      'Melanie: I bought new running shoes.',
      'Caroline: My neighbour baked cookies.',
    ] },
  ];

  let stacks: Pair;
  before(async () => { stacks = await startPair(transcript, { author_weight: 0, session_weight: 0 }); });
  after(() => stopPair(stacks));

  const ask = async (name: 'refined' | 'plain', query: string) => (await hybridHits(stacks[name], query)).map((hit) => hit.content);

  test('"What did Melanie paint?" puts what Melanie said above what was said to her', async () => {
    const plain = await ask('plain', 'What did Melanie paint?');
    const refined = await ask('refined', 'What did Melanie paint?');
    assert.match(plain[0]!, /^Caroline: Melanie, your painting/);
    assert.match(refined[0]!, /^Melanie: Thanks! I painted a horse/);
  });
});

describe('hybrid search refinement: named authors given as the message name', () => {
  // The transcript above with each speaker as the message's name and no "Name:" in the content.
  const transcript = [
    { label: 'saturday', messages: [
      { name: 'Caroline', content: 'Melanie, your painting of the lake is gorgeous, you should paint more!' },
      { name: 'Melanie', content: 'Thanks! I painted a horse last week as well.' },
      { name: 'Caroline', content: 'We hiked up to the waterfall on Saturday morning.' },
    ] },
    { label: 'monday', messages: [
      { name: 'Melanie', content: 'The kids want a pet hamster.' },
      { name: 'Caroline', content: 'Work was busy, lots of meetings about the waterfall project budget.' },
      { name: 'Melanie', content: 'I bought new running shoes.' },
    ] },
  ];

  let stacks: Pair;
  before(async () => { stacks = await startPair(transcript, { author_weight: 0, session_weight: 0 }); });
  after(() => stopPair(stacks));

  const ask = (name: 'refined' | 'plain', query: string) => hybridHits(stacks[name], query);

  test('"What did Melanie paint?" puts her message above Caroline\'s that names her', async () => {
    const plain = await ask('plain', 'What did Melanie paint?');
    const refined = await ask('refined', 'What did Melanie paint?');
    assert.match(plain[0]!.content, /^Melanie, your painting/, 'control: by words and meaning alone Caroline\'s comes first');
    assert.match(refined[0]!.content, /^Thanks! I painted a horse/);
    assert.equal(refined[0]!.metadata.name, 'Melanie');
  });
});

describe('hybrid search refinement: named periods', () => {
  // Both camping stories share the question's words; only the dates say which one is June's.
  const sessions = [
    { label: 'october', at: '2023-10-20T14:00:00Z', messages: [
      'Melanie: We went camping again, camping is the best!',
      'Caroline: Sounds lovely.',
    ] },
    { label: 'june', at: '2023-06-27T14:00:00Z', messages: [
      'Melanie: Back home: last weekend the whole family went camping up in the hills, with the dog and far too much food.',
      'Caroline: How nice!',
    ] },
  ];

  let stacks: Pair;
  before(async () => { stacks = await startPair(sessions, { time_weight: 0 }); });
  after(() => stopPair(stacks));

  test('"When did Melanie go camping in June?" puts the story told in June first', async () => {
    const top = async (name: 'refined' | 'plain') => {
      const response = await stacks[name].api('POST', '/api/v1/query', { query: 'When did Melanie go camping in June?', limit: 4 });
      assert.equal(response.status, 200);
      return (response.body as { results: Array<{ content: string }> }).results[0]!.content;
    };
    assert.match(await top('plain'), /^Melanie: We went camping again/);
    assert.match(await top('refined'), /^Melanie: Back home: last weekend/);
  });

  test('context assembly scores the story told in June above the other; without the time bonus it does not', async () => {
    const scoreOf = async (name: 'refined' | 'plain', story: RegExp) => {
      const response = await stacks[name].api('POST', '/api/v1/context/assemble', { query: 'When did Melanie go camping in June?' });
      assert.equal(response.status, 200);
      const messages = response.body as Array<{ content: string; metadata: { relevance_score: number } }>;
      const found = messages.find((message) => story.test(message.content));
      assert.ok(found, `${story} is in the context`);
      return found.metadata.relevance_score;
    };
    const june = /^Melanie: Back home: last weekend/;
    const october = /^Melanie: We went camping again/;
    assert.ok(await scoreOf('refined', june) > await scoreOf('refined', october), 'June\'s story scores higher');
    assert.ok(await scoreOf('plain', june) <= await scoreOf('plain', october), 'control: by words and meaning alone it does not');
  });
});
