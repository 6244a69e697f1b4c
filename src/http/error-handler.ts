import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode } from '../domain/errors.js';
import { INTERNAL_ERROR, toWireError, type WireError } from './error-mapping.js';

export interface ValidationIssue {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

/**
 * What the router refuses before any route runs (a path segment over the router's length limit, a URL it cannot
 * decode), answered in the same envelope as everything else (Fastify's own answer had its own shape).
 */
export function answerFrameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
  void reply.code(tooLong ? 414 : 400).type('application/json').send({
    error: tooLong ? `A path segment is longer than ${MAX_PATH_SEGMENT_CHARS} characters` : 'The URL is not valid',
    code: ErrorCode.VALIDATION_ERROR,
  });
}

/** The router's limit on one path parameter (Fastify's maxParamLength); ids are far shorter. */
export const MAX_PATH_SEGMENT_CHARS = 100;

/** Turns every failure into `{"error", "code"}`; unknown errors become a logged 500 that reveals nothing. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const { status, code, message } = describe(error);
    if (code === ErrorCode.INTERNAL_ERROR) request.log.error({ err: error }, 'request failed');
    if (code === ErrorCode.STORAGE_FULL) request.log.warn('storage full: write refused');
    if (code === ErrorCode.RATE_LIMITED) request.log.debug('rate limited');
    return reply.code(status).type('application/json').send({ error: message, code });
  });
  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send({ error: `Route not found: ${request.method} ${request.url.split('?')[0]}`, code: ErrorCode.NOT_FOUND }));
}

/** Domain errors through the one mapping; then what Fastify itself raises (validation, body parsing). */
function describe(error: FastifyError): WireError {
  const known = toWireError(error);
  if (known) return known;
  const fastifyError = error as FastifyError & { validation?: ValidationIssue[]; validationContext?: string };
  if (fastifyError.validation?.length) {
    return {
      status: 400,
      code: ErrorCode.VALIDATION_ERROR,
      message: validationMessage(fastifyError.validationContext ?? 'request', fastifyError.validation[0]!),
    };
  }
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return { status: 400, code: ErrorCode.INVALID_JSON, message: 'Body is not valid JSON' };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { status: 413, code: ErrorCode.PAYLOAD_TOO_LARGE, message: 'Request body is too large' };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { status: 415, code: ErrorCode.UNSUPPORTED_MEDIA_TYPE, message: 'Send the body as application/json' };
  }
  if (error instanceof SyntaxError) return { status: 400, code: ErrorCode.INVALID_JSON, message: 'Body is not valid JSON' };
  const status = fastifyError.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    return { status, code: ErrorCode.VALIDATION_ERROR, message: fastifyError.message };
  }
  return INTERNAL_ERROR;
}

/** Names the offending field the way a client wrote it: `messages[2].content`. */
export function validationMessage(context: string, issue: ValidationIssue): string {
  const path = issue.instancePath
    .split('/')
    .filter(Boolean)
    .map((segment) => (/^\d+$/.test(segment) ? `[${segment}]` : `.${segment}`))
    .join('')
    .replace(/^\./, '');
  const field = path || (context === 'body' ? 'body' : context);
  switch (issue.keyword) {
    case 'required':
      return `${path ? `${path}.` : ''}${String(issue.params.missingProperty)} is required`;
    case 'additionalProperties':
      return `${path ? `${path}.` : ''}${String(issue.params.additionalProperty)} is not a known field`;
    case 'enum':
      return `${field} must be one of: ${(issue.params.allowedValues as unknown[]).join(', ')}`;
    case 'type':
      return `${field} must be ${withArticle(String(issue.params.type))}`;
    default:
      return `${field} ${issue.message ?? 'is invalid'}`;
  }
}

const withArticle = (type: string) => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`);
