import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeBridge } from '../helpers/fake-bridge.js';
import { type RunningService, startService } from '../helpers/service-harness.js';

/**
 * A question about a person is answered by that person's own turns, often in words the question does not
 * use (search.context_author_prior). Two services on the same chats: the default, and the prior switched off.
 */
describe('context assembly: the named author\'s turns', () => {
  let bridge: FakeBridge;
  const services: Record<'default' | 'off', RunningService | undefined> = { default: undefined, off: undefined };
  const sessions = [
    ['Caroline: Melanie, what do you do to relax after a long week?', 'Melanie: Pottery. I signed up for a class last month.',
      'Caroline: I have been reading about gardening and compost lately.', 'Caroline: My sister visited and we baked sourdough bread.'],
    ['Caroline: The concert downtown was loud but fun.', 'Melanie: Swimming with the kids every Sunday morning.',
      'Caroline: I want to adopt a dog this year, maybe a beagle.', 'Caroline: Work has been hectic with the quarterly reports.'],
  ];

  before(async () => {
    bridge = await new FakeBridge().start();
    for (const [name, prior] of [['default', undefined], ['off', 0]] as const) {
      const service = await startService({
        bridge: { url: bridge.url },
        overrides: prior === undefined ? {} : { search: { context_author_prior: prior } },
      });
      for (const [i, turns] of sessions.entries()) {
        const created = await service.api('POST', '/api/v1/conversations', {
          label: `chat ${i + 1}`, folder: '/friends', messages: turns.map((content) => ({ role: 'user', content })),
        });
        assert.equal(created.status, 201, JSON.stringify(created.body));
      }
      await service.waitForEmbeddings();
      services[name] = service;
    }
  });
  after(async () => {
    for (const service of Object.values(services)) await service?.stop();
    await bridge.stop();
  });

  const order = async (name: 'default' | 'off') => {
    const response = await services[name]!.api('POST', '/api/v1/context/assemble', { query: 'What does Melanie do to relax?' });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    return (response.body as Array<{ content: string }>).map((message) => message.content);
  };

  const question = sessions[0]![0]!;
  const answer = sessions[0]![1]!;

  test('her answer, in words the question does not use, comes before the other speaker\'s turn that repeats the question', async () => {
    const ranked = await order('default');
    assert.ok(ranked.indexOf(answer) >= 0 && ranked.indexOf(answer) < ranked.indexOf(question), `order: ${ranked.join(' | ')}`);
    assert.ok(ranked.includes(sessions[1]![1]!), 'her other answer, in another session, is assembled too');
  });

  test('with search.context_author_prior: 0 the turn holding the question\'s words comes first', async () => {
    const ranked = await order('off');
    assert.ok(ranked.indexOf(question) < ranked.indexOf(answer), `order: ${ranked.join(' | ')}`);
  });
});
