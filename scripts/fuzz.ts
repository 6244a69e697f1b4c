import { parseArgs } from 'node:util';
import { runApiFuzz } from '../test/reliability/api-fuzz.js';

/** `npm run fuzz -- --requests 10000 [--seed N]`: the full hostile-input run; exits 1 when the invariant breaks. */
const { values } = parseArgs({ options: { requests: { type: 'string', default: '10000' }, seed: { type: 'string' } } });
const seed = values.seed !== undefined ? Number(values.seed) : Date.now() % 2 ** 31;
const report = await runApiFuzz({ requests: Number(values.requests), seed });
process.stdout.write(`fuzz: ${report.requests} requests, seed ${seed}\nby status: ${JSON.stringify(report.byStatus)}\n` +
  `invariant broken: ${report.failures.length}\n`);
for (const failure of report.failures.slice(0, 20)) process.stdout.write(`  ${failure.method} ${failure.path.slice(0, 120)} -> ${failure.problem}\n`);
process.exit(report.failures.length > 0 ? 1 : 0);
