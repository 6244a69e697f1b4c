import pinoPretty from 'pino-pretty';
import type { DestinationStream, LoggerOptions } from 'pino';

/**
 * Logger options for one process: JSON lines for log collectors, readable lines (pino-pretty) on a
 * terminal. Every line names its component: api, bridge, proxy, ...
 */
export function loggerOptions(options: { level: string; component: string; output: NodeJS.WriteStream }):
  LoggerOptions & { stream: DestinationStream } {
  const stream: DestinationStream = options.output.isTTY
    ? pinoPretty({
      destination: options.output === process.stderr ? 2 : 1,
      colorize: true,
      translateTime: 'HH:MM:ss',
      ignore: 'pid,hostname,component',
      messageFormat: '{component} | {msg}',
      singleLine: true,
      sync: true,
    })
    : options.output;
  return { level: options.level, base: { component: options.component }, stream };
}

/** Whoever read this process's output may be gone (a closed pipe): a log line must not end it, or its shutdown half-way. */
export function survivesClosedOutput(): void {
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);
}
