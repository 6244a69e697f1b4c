import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorResponse } from '../conversations/conversations.schemas.js';
import type { ExportService } from './export.service.js';
import { ExportBody, ExportStream, ImportBody, ImportQuery, ImportResponse } from './export.schemas.js';

const tags = ['export'];
const errors = { 400: ErrorResponse, 401: ErrorResponse, 413: ErrorResponse, 415: ErrorResponse, 429: ErrorResponse };
const JSON_LINES_TYPES = ['application/x-ndjson', 'application/jsonl', 'application/x-jsonlines', 'application/jsonlines'];

export const exportRoutes: FastifyPluginAsyncTypebox<{ exporter: ExportService }> = async (app, { exporter }) => {
  // jsonl arrives as text; records are parsed one line at a time so errors can name the line.
  app.addContentTypeParser(JSON_LINES_TYPES, { parseAs: 'string' }, (_request, body, done) => done(null, body));

  app.post('/export', {
    schema: { tags, summary: 'Stream conversations with their messages (json, jsonl or markdown)', body: ExportBody,
      produces: ['application/json', 'application/x-ndjson', 'text/markdown'],
      response: { 200: ExportStream, ...errors } },
    preValidation: async (request) => { request.body ??= {} as never; },
  }, async (request, reply) => {
    const prepared = exporter.prepareExport({
      format: request.body.format ?? 'json',
      startDate: request.body.start_date,
      endDate: request.body.end_date,
      folder: request.body.folder,
    });
    return reply
      .type(prepared.contentType)
      .header('content-disposition', `attachment; filename="${prepared.filename}"`)
      .header('cache-control', 'no-store')
      .send(Readable.from(prepared.body));
  });

  app.post('/import', {
    schema: { tags, summary: 'Import a json or jsonl export (all records or none)', querystring: ImportQuery, body: ImportBody,
      consumes: ['application/json', ...JSON_LINES_TYPES],
      response: { 200: ImportResponse, ...errors } },
  }, async (request) => {
    const outcome = await exporter.importConversations(request.body, request.query.on_conflict ?? 'skip');
    return {
      imported: outcome.imported,
      replaced: outcome.replaced,
      skipped: outcome.skipped,
      messages: outcome.messages,
      renamed: outcome.renamed,
    };
  });
};
