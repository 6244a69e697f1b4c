import { ErrorCode, ValidationError } from './errors.js';

export const ROOT_FOLDER = '/';

export interface FolderLimits {
  maxChars: number;
  maxDepth: number;
}

/**
 * Normalizes a folder path to `/a/b`: leading slash, no trailing slash, no
 * empty, `.` or `..` segments, no control characters. Repeated and trailing
 * slashes are folded (`/a//b/` -> `/a/b`); `.`/`..` are rejected rather than
 * resolved, because a stored path should mean exactly what the client wrote.
 */
export function normalizeFolder(input: string, limits: FolderLimits, field = 'folder'): string {
  const trimmed = input.trim();
  if (trimmed === '' || trimmed === ROOT_FOLDER) return ROOT_FOLDER;
  if (trimmed.length > limits.maxChars) {
    throw new ValidationError(`${field} is longer than ${limits.maxChars} characters`, ErrorCode.INVALID_FOLDER, field);
  }
  if (!trimmed.startsWith('/')) {
    throw new ValidationError(`${field} must start with "/" (e.g. /work/backend)`, ErrorCode.INVALID_FOLDER, field);
  }
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(trimmed)) {
    throw new ValidationError(`${field} must not contain control characters or backslashes`, ErrorCode.INVALID_FOLDER, field);
  }
  const segments = trimmed.split('/').filter((segment) => segment !== '');
  for (const segment of segments) {
    if (segment === '.' || segment === '..') {
      throw new ValidationError(`${field} must not contain "." or ".." segments`, ErrorCode.INVALID_FOLDER, field);
    }
    if (segment.trim() !== segment) {
      throw new ValidationError(`${field} segments must not start or end with spaces`, ErrorCode.INVALID_FOLDER, field);
    }
  }
  if (segments.length > limits.maxDepth) {
    throw new ValidationError(`${field} is deeper than ${limits.maxDepth} levels`, ErrorCode.INVALID_FOLDER, field);
  }
  return segments.length === 0 ? ROOT_FOLDER : `/${segments.join('/')}`;
}

/** True when `folder` is `ancestor` or lies below it, on segment boundaries. */
export function isInFolder(folder: string, ancestor: string): boolean {
  if (ancestor === ROOT_FOLDER) return true;
  return folder === ancestor || folder.startsWith(`${ancestor}/`);
}
