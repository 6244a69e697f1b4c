import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runApiFuzz } from './api-fuzz.js';

/** A quick seeded slice; `npm run fuzz -- --requests 10000` runs the full one. */
test('hostile input over every route and MCP tool: no 5xx, no crash, the envelope on every 4xx', async () => {
  const report = await runApiFuzz({ requests: 400, seed: 1313 });
  assert.equal(report.requests, 400);
  assert.deepEqual(report.failures.slice(0, 10), []);
});
