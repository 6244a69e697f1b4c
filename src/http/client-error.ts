import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { ErrorCode } from '../domain/errors.js';

/** What Node passes with `clientError`: the parser's code and, for parse errors, the chunk that failed. */
interface ParserError extends Error {
  code?: string;
  rawPacket?: unknown;
}

/** How a request other than HEAD starts (its target may be longer than any chunk: the 431 case). */
const NON_HEAD_REQUEST_START = /^(GET|POST|PUT|PATCH|DELETE|OPTIONS) [^\s]/;

/**
 * The answer to a request Node's parser refused (malformed, head over the size limit, too slow to arrive),
 * written straight to the socket, which is then closed.
 *
 * Such an answer bypasses ServerResponse, which is what drops bodies for HEAD. Fastify's default handler
 * wrote a JSON body whatever the method, and wrote it at once even while an earlier response on the
 * connection was still pending: a client that sent HEAD (or pipelined behind one) read the headers as its
 * answer, then the body as the next response's status line (llhttp: HPE_INVALID_CONSTANT). So the envelope
 * goes out only when the failing request is known not to be HEAD and nothing else is pending on the socket;
 * otherwise the answer is headers only, which every client parses whatever it asked.
 */
export function answerClientError(this: FastifyInstance, error: ParserError, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const status = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
  this.log.debug({ err: error }, `client error: answered ${status}`);
  const pending = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage ?? null;
  const close = (withBody: boolean) => {
    if (socket.writable) socket.write(statusAnswer(status, withBody));
    socket.destroy();
  };

  if (!pending) return close(opensNonHeadRequest(error.rawPacket));
  const failing = pending.req;
  if (failing.complete) {
    // A later, pipelined request failed: the one pending keeps its answer, then the connection ends.
    // Its client pairs the error with whatever it sent next, so the error carries no body.
    if (pending.writableFinished) return close(false);
    pending.once('finish', () => close(false));
    pending.once('close', () => { if (!socket.destroyed) socket.destroy(); });
    return;
  }
  // The pending request itself failed (its body): answer it, unless its handler already started to.
  if (pending.headersSent) return void socket.destroy();
  close(failing.method !== 'HEAD');
}

/** A 408 goes without: its client stopped sending, and no code of the catalogue names it. */
const ENVELOPES: Partial<Record<number, { error: string; code: ErrorCode }>> = {
  400: { error: 'The request is not valid HTTP', code: ErrorCode.VALIDATION_ERROR },
  431: { error: 'The request line and headers are too large', code: ErrorCode.PAYLOAD_TOO_LARGE },
};

function statusAnswer(status: number, withBody: boolean): string {
  const envelope = withBody ? ENVELOPES[status] : undefined;
  const body = envelope ? JSON.stringify(envelope) : '';
  const type = envelope ? 'Content-Type: application/json; charset=utf-8\r\n' : '';
  return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${type}Content-Length: ${Buffer.byteLength(body)}\r\n` +
    `Connection: close\r\n\r\n${body}`;
}

/**
 * Whether the chunk that failed opens a request other than HEAD. With nothing pending on the socket,
 * a chunk that opens with a method is where the failing request starts (a later chunk of a long head looks
 * like one only if its client made it so); any other chunk, or none (a timeout), tells nothing.
 */
function opensNonHeadRequest(rawPacket: unknown): boolean {
  if (!Buffer.isBuffer(rawPacket)) return false;
  return NON_HEAD_REQUEST_START.test(rawPacket.toString('latin1', 0, 16));
}
