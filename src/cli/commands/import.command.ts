import { createReadStream, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { JSONParser } from '@streamparser/json';
import { randomUUID } from 'node:crypto';
import { MemsvcError } from '../../client/client-errors.js';
import type { ImportResult, MemsvcClient } from '../../client/memsvc-client.js';
import { CliError } from '../cli-errors.js';
import { createProgress } from '../progress.js';

export type ImportFormat = 'json' | 'jsonl';
export type OnConflict = 'skip' | 'replace' | 'new_id';

export interface ImportOptions {
  format?: ImportFormat;
  onConflict: OnConflict;
  /** Records per request; each request is stored all or nothing. */
  batchSize: number;
}

/** Requests stay well under the service's body limit (32 MiB by default). */
const MAX_BATCH_BYTES = 8 * 1024 * 1024;

export const formatOf = (file: string, format?: ImportFormat): ImportFormat =>
  format ?? (/\.(jsonl|ndjson|jsonlines)$/i.test(file) ? 'jsonl' : 'json');

/**
 * The conversation records of a json export ({"conversations": [...]} or a bare array) or a jsonl
 * export (one record per line), parsed as the file streams in: memory stays flat whatever its size.
 */
export async function* readRecords(file: string, format: ImportFormat): AsyncGenerator<{ record: unknown; where: string }> {
  if (format === 'jsonl') {
    const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
    let number = 0;
    for await (const line of lines) {
      number += 1;
      if (line.trim() === '') continue;
      try {
        yield { record: JSON.parse(line), where: `line ${number}` };
      } catch {
        throw new CliError(`${file}: line ${number} is not valid JSON`);
      }
    }
    return;
  }
  // Records go out as soon as each is complete; whether the document is an array or an object is
  // known from its first character.
  const pending: unknown[] = [];
  let parser: JSONParser | null = null;
  let index = 0;
  try {
    for await (const chunk of createReadStream(file, { encoding: 'utf8' })) {
      let text = chunk as string;
      if (parser === null) {
        const first = text.trimStart()[0];
        if (first === undefined) continue;
        if (first !== '[' && first !== '{') throw new CliError(`${file} is not a json export (expected [ or {)`);
        parser = new JSONParser({ paths: [first === '[' ? '$.*' : '$.conversations.*'], keepStack: false });
        parser.onValue = ({ value }) => { pending.push(value); };
        text = text.trimStart();
      }
      parser.write(text);
      while (pending.length > 0) yield { record: pending.shift(), where: `conversations[${index++}]` };
    }
    if (parser && !parser.isEnded) parser.end();
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(`${file} is not valid JSON: ${(error as Error).message}`);
  }
  while (pending.length > 0) yield { record: pending.shift(), where: `conversations[${index++}]` };
}

export interface ImportTotals { imported: number; replaced: number; skipped: number; messages: number; renamed: number }

/**
 * Two batches in flight: the service checks the next while it stores one, and stores it only after the one before was
 * stored (the request names its batch and the batch it follows), so a refused batch still stops the import with
 * everything before it in and nothing after it.
 */
const BATCHES_IN_FLIGHT = 2;

interface SentBatch {
  records: unknown[];
  from: string;
  name: string;
  after?: string;
  answer: Promise<ImportResult>;
}

/** Streams each file into the running service in batches; stops at the first batch it refuses. */
export async function importFiles(client: MemsvcClient, files: string[], options: ImportOptions): Promise<ImportTotals> {
  const totals: ImportTotals = { imported: 0, replaced: 0, skipped: 0, messages: 0, renamed: 0 };
  const run = randomUUID();
  let batches = 0;
  // Cleared at the first batch sent out of sequence (its predecessor unknown to the controller that took it, as with
  // replicas behind a balancer, or retried meanwhile): from then on one batch at a time, each sent once the one before
  // it was stored.
  let overlap = true;
  for (const file of files) {
    let size: number;
    try {
      size = statSync(file).size;
    } catch {
      throw new CliError(`cannot read ${file}`);
    }
    const progress = createProgress(`import ${file}`);
    let batch: unknown[] = [];
    let batchBytes = 0;
    let firstWhere = '';
    let records = 0;
    let previous: string | undefined;
    const inFlight: SentBatch[] = [];
    const refused = (from: string, error: unknown) =>
      new CliError(`${file}: records from ${from} on were refused (${totals.imported} conversations imported before): ${(error as Error).message}`);
    /** Waits for the oldest batch in flight and counts it; sends it again, alone, if it came out of sequence. */
    const settleOldest = async () => {
      const sent = inFlight.shift()!;
      let result: ImportResult;
      try {
        result = await sent.answer;
      } catch (error) {
        if (!(error instanceof MemsvcError && error.code === 'OUT_OF_SEQUENCE')) throw refused(sent.from, error);
        // Nothing of it was stored, and every batch before it was: sent again, it keeps the file's order.
        overlap = false;
        try {
          result = await client.import(sent.records, options.onConflict, { batch: sent.name });
        } catch (again) {
          throw refused(sent.from, again);
        }
      }
      totals.imported += result.imported;
      totals.replaced += result.replaced;
      totals.skipped += result.skipped;
      totals.messages += result.messages;
      totals.renamed += result.renamed.length;
      records += sent.records.length;
      progress.update(records, undefined, `${totals.imported} imported, ${totals.skipped} skipped`);
    };
    const dispatch = async () => {
      if (batch.length === 0) return;
      while (inFlight.length >= (overlap ? BATCHES_IN_FLIGHT : 1)) await settleOldest();
      const name = `${run}.${batches++}`;
      const after = overlap && inFlight.length > 0 ? previous : undefined;
      const answer = client.import(batch, options.onConflict, { batch: name, ...(after ? { after } : {}) });
      // Reported when settled in order (settleOldest), not as an unhandled rejection meanwhile.
      answer.catch(() => undefined);
      inFlight.push({ records: batch, from: firstWhere, name, after, answer });
      previous = name;
      batch = [];
      batchBytes = 0;
    };
    try {
      for await (const { record, where } of readRecords(file, formatOf(file, options.format))) {
        const bytes = JSON.stringify(record).length;
        if (batch.length > 0 && (batch.length >= options.batchSize || batchBytes + bytes > MAX_BATCH_BYTES)) await dispatch();
        if (batch.length === 0) firstWhere = where;
        batch.push(record);
        batchBytes += bytes;
      }
    } catch (error) {
      // A record that cannot be read stops the import, but not before the batches in flight are stored (or refused:
      // they come first in the file, so theirs is the error to report).
      while (inFlight.length > 0) await settleOldest();
      throw error;
    }
    await dispatch();
    while (inFlight.length > 0) await settleOldest();
    progress.finish(`${records} records read (${size} bytes)`);
  }
  return totals;
}
