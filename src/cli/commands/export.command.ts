import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ExportRequest, MemsvcClient } from '../../client/memsvc-client.js';
import { createProgress } from '../progress.js';

export interface ExportOptions {
  format: ExportRequest['format'];
  folder?: string;
  from?: string;
  to?: string;
  /** A file, or stdout when absent. */
  output?: string;
}

/** Streams an export of the running service to a file (with progress) or to stdout. */
export async function exportTo(client: MemsvcClient, options: ExportOptions): Promise<number> {
  const body: ExportRequest = {
    format: options.format,
    ...(options.folder ? { folder: options.folder } : {}),
    ...(options.from ? { start_date: options.from } : {}),
    ...(options.to ? { end_date: options.to } : {}),
  };
  const stream = await client.export(body);
  const progress = options.output ? createProgress(`export ${options.output}`, { bytes: true }) : null;
  let bytes = 0;
  const counted = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      bytes += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  const out = options.output ? createWriteStream(options.output, { mode: 0o600 }) : process.stdout;
  const report = progress ? setInterval(() => progress.update(bytes), 500) : null;
  try {
    await pipeline(Readable.fromWeb(stream.pipeThrough(counted) as never), out, { end: options.output !== undefined });
  } finally {
    if (report) clearInterval(report);
  }
  progress?.finish(`${bytes} bytes written`);
  return bytes;
}
