import { createReadStream, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { JSONParser } from '@streamparser/json';
import type { MemsvcClient } from '../../client/memsvc-client.js';
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

/** Streams each file into the running service in batches; stops at the first batch it refuses. */
export async function importFiles(client: MemsvcClient, files: string[], options: ImportOptions): Promise<ImportTotals> {
  const totals: ImportTotals = { imported: 0, replaced: 0, skipped: 0, messages: 0, renamed: 0 };
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
    const send = async (sent: unknown[], from: string) => {
      try {
        const result = await client.import(sent, options.onConflict);
        totals.imported += result.imported;
        totals.replaced += result.replaced;
        totals.skipped += result.skipped;
        totals.messages += result.messages;
        totals.renamed += result.renamed.length;
      } catch (error) {
        throw new CliError(`${file}: records from ${from} on were refused (${totals.imported} conversations imported before): ${(error as Error).message}`);
      }
      records += sent.length;
      progress.update(records, undefined, `${totals.imported} imported, ${totals.skipped} skipped`);
    };
    // One batch in flight while the next is read: a batch is sent only once the one before it was stored,
    // so a refused batch still stops the import with everything before it in and nothing after it.
    let inFlight: Promise<void> | null = null;
    const dispatch = async () => {
      if (batch.length === 0) return;
      if (inFlight) await inFlight;
      inFlight = send(batch, firstWhere);
      // Reported when awaited (the next dispatch or the end), not as an unhandled rejection meanwhile.
      inFlight.catch(() => undefined);
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
      // A record that cannot be read stops the import, but not before the batch in flight is stored (or refused:
      // that comes first in the file, so it is the error to report).
      if (inFlight) await inFlight;
      throw error;
    }
    await dispatch();
    if (inFlight) await inFlight;
    progress.finish(`${records} records read (${size} bytes)`);
  }
  return totals;
}
