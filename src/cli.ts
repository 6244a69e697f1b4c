#!/usr/bin/env node
import { buildProgram } from './cli/program.js';
import { errorLine } from './cli/cli-errors.js';

// `memsvc` alone starts the service, as it always has.
const argv = process.argv.length > 2 ? process.argv : [...process.argv, 'start'];
buildProgram().parseAsync(argv).catch((error: unknown) => {
  process.stderr.write(`memsvc: ${errorLine(error)}\n`);
  process.exit(1);
});
