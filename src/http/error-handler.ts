import type { FastifyError, FastifyInstance } from 'fastify';
import { AppError, ErrorCode, isStorageFull, StorageFullError } from '../domain/errors.js';

export interface ValidationIssue {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

/** Turns every failure into `{"error", "code"}`; unknown errors become a logged 500 that reveals nothing. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    const { status, code, message } = describe(error);
    if (status >= 500 && status !== 507 && status !== 503) request.log.error({ err: error }, 'request failed');
    if (status === 507) request.log.warn('storage full: write refused');
    if (error instanceof AppError && error.code === ErrorCode.RATE_LIMITED) request.log.debug('rate limited');
    return reply.code(status).type('application/json').send({ error: message, code });
  });
  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send({ error: `Route not found: ${request.method} ${request.url.split('?')[0]}`, code: ErrorCode.NOT_FOUND }));
}

function describe(error: FastifyError | AppError): { status: number; code: string; message: string } {
  if (error instanceof AppError) return { status: error.status, code: error.code, message: error.message };
  if (isStorageFull(error)) return describe(new StorageFullError());
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
  return { status: 500, code: ErrorCode.INTERNAL_ERROR, message: 'Internal server error' };
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
