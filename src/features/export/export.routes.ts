import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ForRequest } from '../../http/principal.js';
import type { FastifyRequest } from 'fastify';
import { ErrorCode, ValidationError } from '../../domain/errors.js';
import { ErrorResponse } from '../conversations/conversations.schemas.js';
import type { ExportService } from './export.service.js';
import { BATCH_NAME, ExportBody, ExportStream, ImportBody, ImportQuery, ImportResponse } from './export.schemas.js';
import { ImportSequence, type BatchTicket } from './import-sequence.js';

const tags = ['export'];
const errors = { 400: ErrorResponse, 401: ErrorResponse, 413: ErrorResponse, 415: ErrorResponse, 429: ErrorResponse };
const JSON_LINES_TYPES = ['application/x-ndjson', 'application/jsonl', 'application/x-jsonlines', 'application/jsonlines'];

export const exportRoutes: FastifyPluginAsyncTypebox<{ exporter: ForRequest<ExportService> }> = async (app, { exporter }) => {
  /** Named import batches in order (import-sequence.ts): one for the service, shared by every request. */
  const sequence = new ImportSequence();
  /** The attempt each named import request started; settled as not stored if it ends any other way than stored. */
  const tickets = new WeakMap<FastifyRequest, BatchTicket>();
  const notStored = async (request: FastifyRequest) => { tickets.get(request)?.settle(false); };

  // jsonl arrives as text; records are parsed one line at a time so errors can name the line.
  app.addContentTypeParser(JSON_LINES_TYPES, { parseAs: 'string' }, (_request, body, done) => done(null, body));

  app.post('/export', {
    schema: { tags, summary: 'Stream conversations with their messages (json, jsonl or markdown)', body: ExportBody,
      produces: ['application/json', 'application/x-ndjson', 'text/markdown'],
      response: { 200: ExportStream, ...errors } },
    preValidation: async (request) => { request.body ??= {} as never; },
  }, async (request, reply) => {
    const prepared = exporter(request).prepareExport({
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
      response: { 200: ImportResponse, 409: ErrorResponse, ...errors } },
    // The batch is known from the query string as soon as the request arrives: the batch after it, which may be
    // checked first, can wait for it. Its body has not been read yet; a refused body ends the attempt as not stored.
    onRequest: async (request) => {
      const { batch } = request.query as { batch?: unknown };
      if (typeof batch === 'string' && BATCH_NAME.test(batch)) tickets.set(request, sequence.begin(batch));
    },
    onResponse: notStored,
    onRequestAbort: notStored,
  }, async (request) => {
    const { batch, after, on_conflict: onConflict = 'skip' } = request.query;
    const ticket = tickets.get(request);
    let outcome;
    try {
      if (after !== undefined && after === batch) throw new ValidationError('after must name another batch than batch', ErrorCode.VALIDATION_ERROR, 'after');
      // Checked while the batch before is still being stored: only the store waits for it.
      const prepared = await exporter(request).prepareImport(request.body);
      if (after !== undefined) await sequence.follow(after);
      outcome = await exporter(request).storeImport(prepared, onConflict);
    } catch (error) {
      // Before the answer goes out: a client that sends the batch again at once finds it free.
      ticket?.settle(false);
      throw error;
    }
    ticket?.settle(true);
    return {
      imported: outcome.imported,
      replaced: outcome.replaced,
      skipped: outcome.skipped,
      messages: outcome.messages,
      renamed: outcome.renamed,
    };
  });
};
