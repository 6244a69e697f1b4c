import cliProgress from 'cli-progress';

/** Progress of long work: a bar on a terminal, plain lines (one per update) in logs and pipes. */
export interface Progress {
  /** `done` out of `total` (units are the caller's: bytes, pages, records); total may be unknown. */
  update(done: number, total?: number, note?: string): void;
  finish(summary: string): void;
}

export const formatBytes = (bytes: number): string =>
  bytes < 1024 ? `${bytes} B` : bytes < 1024 ** 2 ? `${(bytes / 1024).toFixed(1)} KiB`
    : bytes < 1024 ** 3 ? `${(bytes / 1024 ** 2).toFixed(1)} MiB` : `${(bytes / 1024 ** 3).toFixed(2)} GiB`;

export function createProgress(label: string, options: { bytes?: boolean; stream?: NodeJS.WriteStream } = {}): Progress {
  const stream = options.stream ?? process.stderr;
  const show = (value: number) => (options.bytes ? formatBytes(value) : String(value));
  if (!stream.isTTY) {
    return {
      update(done, total, note) {
        stream.write(`${label}: ${show(done)}${total ? ` of ${show(total)}` : ''}${note ? ` (${note})` : ''}\n`);
      },
      finish(summary) { stream.write(`${label}: ${summary}\n`); },
    };
  }
  const bar = new cliProgress.SingleBar({
    stream, hideCursor: true, clearOnComplete: true,
    format: (opts, params, payload: { note?: string }) => {
      const known = params.total > 0;
      const width = opts.barsize ?? 30;
      const filled = known ? Math.round(Math.min(1, params.value / params.total) * width) : 0;
      const bar = known ? `${'█'.repeat(filled)}${'░'.repeat(width - filled)} ${Math.floor((params.value / params.total) * 100)}% ` : '';
      return `${label} ${bar}${show(params.value)}${known ? ` / ${show(params.total)}` : ''}${payload.note ? `  ${payload.note}` : ''}`;
    },
  });
  let started = false;
  return {
    update(done, total, note) {
      if (!started) { bar.start(total ?? 0, done, { note }); started = true; return; }
      if (total !== undefined) bar.setTotal(total);
      bar.update(done, { note });
    },
    finish(summary) {
      if (started) bar.stop();
      stream.write(`${label}: ${summary}\n`);
    },
  };
}
