import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/** Probes, metrics scrapes and the UI's files would drown the log: they are logged at debug. */
const QUIET_ROUTES = new Set(['/health', '/metrics', '/', '/*', '/docs', '/docs/*', '/docs/static/*', '/openapi.json']);

/** One line per request, when it completes: "GET /api/v1/conversations 200 3 ms". */
export class RequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line = `${request.method} ${request.url} ${reply.statusCode} ${Math.round(reply.elapsedTime)} ms`;
    // The caller's key id (never its secret): whose request this was.
    const who = { key_id: request.principal?.keyId ?? request.claimedKeyId };
    if (error) return reply.log.error({ err: error, ...who }, line);
    const quiet = request.method === 'GET' && QUIET_ROUTES.has(request.routeOptions.url ?? '');
    if (quiet) reply.log.debug(who, line);
    else reply.log.info(who, line);
  }
}
