import { ValidationError } from './errors.js';

/** How deep a JSON value may nest (objects and arrays); far beyond any real document, far below any stack limit. */
export const MAX_JSON_DEPTH = 64;

export interface JsonBoundsIssue {
  /** Where it is, the way a client wrote it: `messages[0].metadata`. Cut at the depth limit's first levels. */
  field: string;
  problem: 'too_deep' | 'not_finite';
}

const NAMED_LEVELS = 3;

/**
 * Walks a parsed JSON value without recursion (so any depth is safe, whatever
 * the stack) and reports the first place nested deeper than maxDepth or
 * holding a non-finite number (`1e309` parses to Infinity).
 */
export function findJsonBoundsIssue(value: unknown, root: string, maxDepth = MAX_JSON_DEPTH): JsonBoundsIssue | null {
  const stack: Array<{ value: unknown; path: string[]; depth: number }> = [{ value, path: [], depth: 0 }];
  while (stack.length > 0) {
    const { value: current, path, depth } = stack.pop()!;
    if (typeof current === 'number') {
      if (!Number.isFinite(current)) return { field: fieldName(root, path), problem: 'not_finite' };
      continue;
    }
    if (typeof current !== 'object' || current === null) continue;
    if (depth >= maxDepth) return { field: fieldName(root, path.slice(0, NAMED_LEVELS)), problem: 'too_deep' };
    const named = path.length < NAMED_LEVELS;
    if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index--) {
        stack.push({ value: current[index], path: named ? [...path, `[${index}]`] : path, depth: depth + 1 });
      }
    } else {
      const keys = Object.keys(current);
      for (let index = keys.length - 1; index >= 0; index--) {
        const key = keys[index]!;
        stack.push({ value: (current as Record<string, unknown>)[key], path: named ? [...path, `.${key}`] : path, depth: depth + 1 });
      }
    }
  }
  return null;
}

/** Throws a 400 naming the field when the value nests too deep or holds a non-finite number. */
export function assertJsonBounds(value: unknown, root: string, maxDepth = MAX_JSON_DEPTH): void {
  const issue = findJsonBoundsIssue(value, root, maxDepth);
  if (issue) throw new ValidationError(describeJsonBoundsIssue(issue, maxDepth));
}

export function describeJsonBoundsIssue(issue: JsonBoundsIssue, maxDepth = MAX_JSON_DEPTH): string {
  return issue.problem === 'too_deep'
    ? `${issue.field} is nested deeper than ${maxDepth} levels`
    : `${issue.field} must be a finite number`;
}

/** The UTF-8 size of JSON.stringify(value), after assertJsonBounds (so stringifying cannot overflow the stack). */
export function boundedJsonBytes(value: unknown, field: string): number {
  assertJsonBounds(value, field);
  return Buffer.byteLength(JSON.stringify(value));
}

function fieldName(root: string, path: readonly string[]): string {
  const joined = `${root}${path.join('')}`;
  return joined.startsWith('.') ? joined.slice(1) : joined || 'body';
}
