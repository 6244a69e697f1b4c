import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeBridge } from '../helpers/fake-bridge.js';
import { type RunningService, startService } from '../helpers/service-harness.js';

/**
 * A question about a person is answered by that person's own turns, often in words the question does not
 * use (search.context_author_prior). Three services on the same chats: the default, the prior switched off,
 * and the default with each speaker given as the message's name rather than a "Name:" in its content.
 */
describe('context assembly: the named author\'s turns', () => {
  type Service = 'default' | 'off' | 'named';
  let bridge: FakeBridge;
  const services: Record<Service, RunningService | undefined> = { default: undefined, off: undefined, named: undefined };
  const sessions = [
    [['Caroline', 'Melanie, what do you do to relax after a long week?'], ['Melanie', 'Pottery. I signed up for a class last month.'],
      ['Caroline', 'I have been reading about gardening and compost lately.'], ['Caroline', 'My sister visited and we baked sourdough bread.']],
    [['Caroline', 'The concert downtown was loud but fun.'], ['Melanie', 'Swimming with the kids every Sunday morning.'],
      ['Caroline', 'I want to adopt a dog this year, maybe a beagle.'], ['Caroline', 'Work has been hectic with the quarterly reports.']],
  ] as const;
  const message = (service: Service, [speaker, text]: readonly [string, string]) =>
    (service === 'named' ? { role: 'user', name: speaker, content: text } : { role: 'user', content: `${speaker}: ${text}` });

  before(async () => {
    bridge = await new FakeBridge().start();
    for (const [name, prior] of [['default', undefined], ['off', 0], ['named', undefined]] as const) {
      const service = await startService({
        bridge: { url: bridge.url },
        overrides: prior === undefined ? {} : { search: { context_author_prior: prior } },
      });
      for (const [i, turns] of sessions.entries()) {
        const created = await service.api('POST', '/api/v1/conversations', {
          label: `chat ${i + 1}`, folder: '/friends', messages: turns.map((turn) => message(name, turn)),
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

  /** The assembled turns in order, each as "speaker: text" (the speaker from the content or from the name). */
  const order = async (name: Service) => {
    const response = await services[name]!.api('POST', '/api/v1/context/assemble', { query: 'What does Melanie do to relax?' });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    return (response.body as Array<{ name: string | null; content: string }>)
      .map((turn) => (turn.name === null ? turn.content : `${turn.name}: ${turn.content}`));
  };

  const [question, answer] = sessions[0].map(([speaker, text]) => `${speaker}: ${text}`);
  const otherAnswer = `Melanie: ${sessions[1][1][1]}`;

  test('her answer, in words the question does not use, comes before the other speaker\'s turn that repeats the question', async () => {
    const ranked = await order('default');
    assert.ok(ranked.indexOf(answer!) >= 0 && ranked.indexOf(answer!) < ranked.indexOf(question!), `order: ${ranked.join(' | ')}`);
    assert.ok(ranked.includes(otherAnswer), 'her other answer, in another session, is assembled too');
  });

  test('with search.context_author_prior: 0 the turn holding the question\'s words comes first', async () => {
    const ranked = await order('off');
    assert.ok(ranked.indexOf(question!) < ranked.indexOf(answer!), `order: ${ranked.join(' | ')}`);
  });

  test('with the speakers as message names (no "Name:" in the content) her answer comes first as well', async () => {
    const ranked = await order('named');
    assert.ok(ranked.indexOf(answer!) >= 0 && ranked.indexOf(answer!) < ranked.indexOf(question!), `order: ${ranked.join(' | ')}`);
    assert.ok(ranked.includes(otherAnswer), 'her other answer, in another session, is assembled too');
  });
});
