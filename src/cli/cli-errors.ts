import { MemsvcError } from '../client/client-errors.js';

/** A failure the user can act on: printed as one line, exit status 1, no stack trace. */
export class CliError extends Error {}

/** One line for any error: ours, the client's, or an unexpected one. */
export function errorLine(error: unknown, serviceUrl?: string): string {
  if (error instanceof MemsvcError) {
    if (error.status === 0) {
      return `memsvc is not running${serviceUrl ? ` at ${serviceUrl}` : ''}: start it with "memsvc start"`;
    }
    return `${error.message} (${error.code})`;
  }
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0] ?? message;
}
