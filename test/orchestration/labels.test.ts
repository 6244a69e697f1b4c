import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeBridge } from '../helpers/fake-bridge.js';
import { create } from './orchestration-helpers.js';
import { UNKNOWN_ID } from '../helpers/fixtures.js';
import { removeDir, type RunningService, startService } from '../helpers/service-harness.js';

const say = (...contents: string[]) => contents.map((content, i) => ({ role: i % 2 ? 'assistant' : 'user', content }));

async function seed(server: RunningService): Promise<string> {
  await create(server, { label: 'databases', messages: say('The postgres database migration failed on the index.',
    'Rebuild the database index before the migration.') });
  await create(server, { label: 'databases', messages: say('Postgres query planner ignores my database index.',
    'Analyze the table so the planner sees the index.') });
  await create(server, { label: 'cooking', messages: say('My pasta sauce needs more garlic and basil.',
    'Roast the garlic first, then simmer the sauce.') });
  const target = await create(server, { label: 'untitled', messages: say(
    'The database migration deadlocked on the postgres index again.',
    'Split the database migration into batches and build the index concurrently.',
    'The database migration worked after that, thanks to Postgres advisory locks.') });
  await server.waitForEmbeddings();
  return target;
}

describe('POST /api/v1/labels/suggest (offline)', () => {
  let bridge: FakeBridge;
  let server: RunningService;
  let target: string;

  before(async () => {
    bridge = await new FakeBridge().start();
    server = await startService({ bridge: { url: bridge.url } });
    target = await seed(server);
  });
  after(async () => {
    await server.stop();
    await bridge.stop();
    removeDir(server.dataDir);
  });

  const suggest = (body: unknown) => server.api('POST', '/api/v1/labels/suggest', body);

  test('the closest existing label comes first, then new labels from key phrases and entities', async () => {
    const response = await suggest({ conversation_id: target });
    assert.equal(response.status, 200);
    assert.equal(response.body.conversation_id, target);
    const { suggestions } = response.body;
    assert.ok(suggestions.length >= 3);
    assert.equal(suggestions[0].label, 'databases');
    assert.equal(suggestions[0].is_existing, true);
    assert.match(suggestions[0].reason, /2 conversations/);
    const confidences = suggestions.map((s: any) => s.confidence);
    assert.deepEqual(confidences, [...confidences].sort((a, b) => b - a), 'ranked by confidence');
    for (const s of suggestions) {
      assert.ok(s.confidence >= 0 && s.confidence <= 1, `${s.label} ${s.confidence}`);
      assert.equal(typeof s.reason, 'string');
      assert.equal(typeof s.is_existing, 'boolean');
    }
    const labels = suggestions.map((s: any) => s.label);
    assert.ok(labels.includes('database migration'), labels.join(', '));
    assert.ok(labels.includes('Postgres'), labels.join(', '));
    assert.ok(!labels.includes('untitled'), 'its own label is not suggested');
    const cooking = suggestions.find((s: any) => s.label === 'cooking');
    assert.ok(!cooking || cooking.confidence < suggestions[0].confidence);
    assert.deepEqual(response.body.sources, ['embeddings', 'keyphrases', 'entities']);
    assert.equal(bridge.chatRequests.length, 0, 'no chat model is configured');
  });

  test('limit bounds the list', async () => {
    const response = await suggest({ conversation_id: target, limit: 2 });
    assert.equal(response.body.suggestions.length, 2);
  });

  test('a conversation without messages gets no suggestions, not an error', async () => {
    const id = await create(server, { label: 'empty' });
    const response = await suggest({ conversation_id: id });
    assert.equal(response.status, 200);
    assert.deepEqual(response.body.suggestions, []);
  });

  test('bad input is a 400, an unknown conversation a 404', async () => {
    for (const body of [{}, { conversation_id: 5 }, { conversation_id: target, limit: 0 }, { conversation_id: target, limit: 51 },
      { conversation_id: target, other: 1 }]) {
      assert.equal((await suggest(body)).status, 400, JSON.stringify(body));
    }
    assert.equal((await server.api('POST', '/api/v1/labels/suggest')).status, 400);
    const unknown = await suggest({ conversation_id: UNKNOWN_ID });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error, `Conversation not found: ${UNKNOWN_ID}`);
    assert.equal((await suggest({ conversation_id: 'abc' })).status, 404);
  });
});

describe('POST /api/v1/labels/suggest (with a chat model on the bridge)', () => {
  let bridge: FakeBridge;
  let server: RunningService;
  let target: string;

  before(async () => {
    bridge = await new FakeBridge().start();
    server = await startService({ bridge: { url: bridge.url }, overrides: { bridge: { chat: { provider: 'openai' } } } });
    target = await seed(server);
  });
  after(async () => {
    await server.stop();
    await bridge.stop();
    removeDir(server.dataDir);
  });

  test("the model's proposals are merged in; an existing label it picks gains confidence", async () => {
    const offline = bridge.chatReply = 'not json at all';
    assert.ok(offline);
    const without = await server.api('POST', '/api/v1/labels/suggest', { conversation_id: target });
    assert.equal(without.status, 200, 'an unusable answer is ignored');
    assert.ok(!without.body.sources.includes('llm'));

    bridge.chatReply = 'Sure! {"labels":[{"label":"databases","reason":"about a migration"},' +
      '{"label":"Deadlock debugging","reason":"the main problem"}]}';
    const response = await server.api('POST', '/api/v1/labels/suggest', { conversation_id: target });
    assert.equal(response.status, 200);
    assert.ok(response.body.sources.includes('llm'));
    const request = bridge.chatRequests.at(-1) as { messages: Array<{ content: string }> };
    assert.match(request.messages[1]!.content, /"databases"/, 'existing labels are offered to the model');
    const byLabel = new Map(response.body.suggestions.map((s: any) => [s.label, s]));
    const deadlock: any = byLabel.get('Deadlock debugging');
    assert.equal(deadlock.is_existing, false);
    assert.match(deadlock.reason, /fake-chat-v1/);
    const databases: any = byLabel.get('databases');
    const before: any = without.body.suggestions.find((s: any) => s.label === 'databases');
    assert.ok(databases.confidence > before.confidence);
    assert.equal(response.body.suggestions[0].label, 'databases');
  });

  test('a bridge that refuses the chat call leaves the offline suggestions', async () => {
    bridge.chatReply = null;
    const response = await server.api('POST', '/api/v1/labels/suggest', { conversation_id: target });
    assert.equal(response.status, 200);
    assert.ok(!response.body.sources.includes('llm'));
    assert.equal(response.body.suggestions[0].label, 'databases');
  });
});
