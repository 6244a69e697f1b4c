export { createMemsvcClient } from './memsvc-client.js';
export type * from './memsvc-client.js';
export {
  MemsvcError, MemsvcValidationError, MemsvcAuthError, MemsvcForbiddenError, MemsvcNotFoundError, MemsvcConflictError, MemsvcRateLimitError, MemsvcUnavailableError,
} from './client-errors.js';
export type { RetryPolicy } from './retrying-fetch.js';
export type { paths, components } from './openapi-schema.js';
