/**
 * The date-parsing thread: reads the periods questions name with chrono-node (ranking/period-parsing.ts), so that
 * neither its import and warm-up at start nor a parse per dated question holds the request thread.
 */
import { parentPort } from 'node:worker_threads';
import { parsePeriods, warmUpDateParsing } from '../../ranking/period-parsing.js';
import type { PeriodParsingReply, PeriodParsingRequest } from './period-parsing.protocol.js';

const port = parentPort!;

port.on('message', (request: PeriodParsingRequest) => {
  let reply: PeriodParsingReply;
  try {
    reply = { id: request.id, ok: true, periods: parsePeriods(request.query, new Date(request.now)) };
  } catch (error) {
    reply = { id: request.id, ok: false, error: (error as Error).message };
  }
  port.postMessage(reply);
});

// Questions that arrive meanwhile wait in the port's queue.
warmUpDateParsing();
