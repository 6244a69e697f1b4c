/**
 * Stores the bench corpus's 10-message conversations through the SQLite storage's own create (no HTTP), at a
 * fixed concurrency, and prints messages a second and the process's CPU: what the store can take apart from
 * the HTTP layer and the pipeline.
 *
 *   npx tsx scripts/store-rate-probe.ts --conversations 20000 --concurrency 8
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStorage } from '../src/adapters/sqlite/sqlite-storage.js';
import { newId } from '../src/domain/ids.js';
import { generateConversation } from '../bench/lib/corpus.js';
import { option } from './lib/probe-options.js';

const count = Number(option('conversations', '20000'));
const concurrency = Number(option('concurrency', '8'));
const dir = mkdtempSync(join(tmpdir(), 'memsvc-store-rate-'));
const storage = openSqliteStorage(dir);
const policy = { maxMessagesPerConversation: 10_000, sessionGapMs: 30 * 60_000 };
const now = new Date().toISOString();
const inputs = Array.from({ length: count }, (_, i) => {
  const generated = generateConversation(i, { seed: 42, messagesPerConversation: 10 });
  return {
    id: newId(), label: generated.label, folder: generated.folder, importanceScore: generated.importance_score, now,
    messages: generated.messages.map((m) => ({ role: m.role, content: m.content, timestamp: now, metadata: null })),
  };
});
/** Bytes this process has caused to be written to storage so far (Linux), or 0 elsewhere. */
function writtenBytes(): number {
  try {
    return Number(/write_bytes: (\d+)/.exec(readFileSync('/proc/self/io', 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}
const written0 = writtenBytes();
const cpu0 = process.cpuUsage();
const started = performance.now();
let next = 0;
await Promise.all(Array.from({ length: concurrency }, async () => {
  while (next < count) {
    const input = inputs[next]!;
    next += 1;
    await storage.conversations.create(input, policy);
  }
}));
const wall = performance.now() - started;
const cpu = process.cpuUsage(cpu0);
console.log(`${count * 10} messages in ${(wall / 1000).toFixed(1)} s: ${Math.round((count * 10 * 1000) / wall)} msgs/s; ` +
  `request thread and writer together ${Math.round((cpu.user + cpu.system) / 1000)} ms CPU ` +
  `(${Math.round((cpu.user + cpu.system) / (count * 10))} µs a message)`);
await storage.close();
console.log(`written to storage: ${((writtenBytes() - written0) / 1e6).toFixed(0)} MB (${Math.round((writtenBytes() - written0) / (count * 10))} bytes a message)`);
rmSync(dir, { recursive: true, force: true });
