import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../../ports/clock.js';
import { ErrorResponse } from '../conversations/conversations.schemas.js';
import type { MessageActivityReader } from '../../ports/message-activity-reader.js';
import type { ForRequest } from '../../http/principal.js';
import { fillDays, windowStart } from './message-activity.js';
import { ActivityQuery, ActivityResponse } from './ui.schemas.js';
import { findWebDist, loadStaticSite, looksLikeFile, sitePath, type StaticFile } from './ui-static.js';

export interface UiRouteOptions {
  activity: ForRequest<MessageActivityReader>;
  clock: Clock;
  /** The built UI (web/dist); found next to the package when absent, null to serve none. */
  webRoot?: string | null;
}

/** The UI is static and holds no secrets; the page may only talk to this origin. */
const HTML_HEADERS = {
  'content-security-policy': "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
};

const NOT_BUILT = '<!doctype html><meta charset="utf-8"><title>memsvc</title>' +
  '<h1>memsvc</h1><p>The web UI has not been built. Run <code>npm run build:web</code> and restart. ' +
  'The API is at <a href="/docs">/docs</a>.</p>';

/**
 * The memory browser: the built single-page app at "/" (public; it signs in with the API key
 * itself), plus the one read the dashboard needs that no other endpoint offers. Registered last,
 * so every real route wins over its catch-all.
 */
export const uiRoutes: FastifyPluginAsyncTypebox<UiRouteOptions> = async (app, options) => {
  const root = options.webRoot === undefined ? findWebDist() : options.webRoot;
  const site = root ? loadStaticSite(root) : null;
  const index = site?.get('/index.html') ?? null;
  if (!index) app.log.warn('web UI not built (web/dist is missing): run npm run build:web');

  app.get('/api/v1/activity/messages-per-day', {
    schema: { tags: ['ui'], summary: 'Messages per UTC day, for the dashboard chart', querystring: ActivityQuery,
      response: { 200: ActivityResponse, 400: ErrorResponse, 401: ErrorResponse, 429: ErrorResponse } },
  }, async (request) => {
    const now = options.clock.now();
    const counts = await options.activity(request).messagesPerDay(windowStart(request.query.days, now));
    return fillDays(counts, request.query.days, now);
  });

  // Unknown API paths keep their JSON 404 (after auth, as before); only the rest falls back to the app.
  const apiNotFound = async (_request: FastifyRequest, reply: FastifyReply) => reply.callNotFound();
  app.get('/api/*', { schema: { hide: true } }, apiNotFound);
  app.get('/mcp/*', { schema: { hide: true } }, apiNotFound);

  const send = (request: FastifyRequest, reply: FastifyReply, file: StaticFile, extra: Record<string, string> = {}) => {
    reply.header('content-type', file.contentType).header('cache-control', file.cacheControl)
      .header('etag', file.etag).header('x-content-type-options', 'nosniff').headers(extra);
    if (request.headers['if-none-match'] === file.etag) return reply.code(304).send();
    return reply.code(200).send(file.body);
  };

  const serve = async (request: FastifyRequest, reply: FastifyReply) => {
    const path = sitePath(request.url);
    if (!site || !index) {
      return reply.code(503).header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-store').send(NOT_BUILT);
    }
    const file = path === null ? undefined : site.get(path === '/' ? '/index.html' : path);
    if (file) return send(request, reply, file, file === index ? HTML_HEADERS : {});
    if (path === null || looksLikeFile(path)) return reply.callNotFound();
    // A client-side route (/conversations/…, /search?q=…): the app renders it.
    return send(request, reply, index, HTML_HEADERS);
  };
  app.get('/', { config: { public: true }, schema: { hide: true } }, serve);
  app.get('/*', { config: { public: true }, schema: { hide: true } }, serve);
};
