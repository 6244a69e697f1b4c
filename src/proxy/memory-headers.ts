import type { IncomingHttpHeaders } from 'node:http';
import { ValidationError } from '../domain/errors.js';
import { MAX_CONTEXT_BUDGET, MAX_EXCLUDED_FOLDERS, MAX_PREFERRED_LABELS, MIN_CONTEXT_BUDGET } from '../features/context/context.schemas.js';
import { ProxyError, ProxyErrorCode } from './proxy-errors.js';

/** The request headers that steer memory, as clients spell them. */
export const MemoryHeader = {
  DISABLE: 'X-Memory-Disable',
  CONVERSATION_ID: 'X-Memory-Conversation-Id',
  LABEL: 'X-Memory-Label',
  FOLDER: 'X-Memory-Folder',
  BUDGET: 'X-Memory-Budget',
  LABELS: 'X-Memory-Labels',
  EXCLUDE_FOLDERS: 'X-Memory-Exclude-Folders',
  UPSTREAM_AUTHORIZATION: 'X-Upstream-Authorization',
} as const;

/** What a request asks of memory. */
export interface MemoryDirectives {
  /** Neither inject context nor store the exchange. */
  disabled: boolean;
  /** Store into this existing conversation. */
  conversationId?: string;
  /** Store into the newest active conversation with this label in `folder` (created when there is none). */
  label?: string;
  /** Folder of the conversation the exchange is stored in (normalized); default "/". */
  folder?: string;
  budget: number;
  preferredLabels: string[];
  excludedFolders: string[];
}

export interface HeaderRules {
  defaultBudget: number;
  maxLabelChars: number;
  /** Normalizes a folder path or throws a ValidationError naming `field`. */
  normalizeFolder(folder: string, field: string): string;
}

const TRUE_VALUES = new Set(['true', '1', 'yes', 'on']);
const FALSE_VALUES = new Set(['false', '0', 'no', 'off']);

/**
 * Reads the X-Memory-* headers. Labels and folders may be percent-encoded
 * (UTF-8), since header values are Latin-1; list headers are comma-separated
 * and empty items are skipped. Any invalid value is a 400 naming the header.
 */
export function parseMemoryHeaders(headers: IncomingHttpHeaders, rules: HeaderRules): MemoryDirectives {
  const disable = single(headers, MemoryHeader.DISABLE);
  let disabled = false;
  if (disable !== undefined) {
    const value = disable.toLowerCase();
    if (TRUE_VALUES.has(value)) disabled = true;
    else if (!FALSE_VALUES.has(value)) invalid(MemoryHeader.DISABLE, 'must be true or false');
  }

  const budgetText = single(headers, MemoryHeader.BUDGET);
  let budget = rules.defaultBudget;
  if (budgetText !== undefined) {
    budget = /^\d{1,9}$/.test(budgetText) ? Number(budgetText) : Number.NaN;
    if (!(budget >= MIN_CONTEXT_BUDGET && budget <= MAX_CONTEXT_BUDGET)) {
      invalid(MemoryHeader.BUDGET, `must be an integer from ${MIN_CONTEXT_BUDGET} to ${MAX_CONTEXT_BUDGET} (tokens)`);
    }
  }

  const preferredLabels = list(headers, MemoryHeader.LABELS).map((label) => checkLabel(label, MemoryHeader.LABELS, rules));
  if (preferredLabels.length > MAX_PREFERRED_LABELS) invalid(MemoryHeader.LABELS, `holds more than ${MAX_PREFERRED_LABELS} labels`);
  const excludedFolders = [...new Set(list(headers, MemoryHeader.EXCLUDE_FOLDERS)
    .map((folder) => folderOf(folder, MemoryHeader.EXCLUDE_FOLDERS, rules)))];
  if (excludedFolders.length > MAX_EXCLUDED_FOLDERS) invalid(MemoryHeader.EXCLUDE_FOLDERS, `holds more than ${MAX_EXCLUDED_FOLDERS} folders`);

  const directives: MemoryDirectives = { disabled, budget, preferredLabels, excludedFolders };
  const conversationId = single(headers, MemoryHeader.CONVERSATION_ID);
  if (conversationId !== undefined) directives.conversationId = conversationId;
  const label = text(headers, MemoryHeader.LABEL);
  if (label !== undefined) directives.label = checkLabel(label, MemoryHeader.LABEL, rules);
  const folder = text(headers, MemoryHeader.FOLDER);
  if (folder !== undefined) directives.folder = folderOf(folder, MemoryHeader.FOLDER, rules);
  return directives;
}

/**
 * The Authorization to send upstream: the client's X-Upstream-Authorization when
 * pass-through is on (a bare key gets "Bearer "), else the configured key, else none.
 */
export function upstreamAuthorization(headers: IncomingHttpHeaders, passThrough: boolean, configuredKey: string): string | undefined {
  const presented = single(headers, MemoryHeader.UPSTREAM_AUTHORIZATION);
  if (presented !== undefined) {
    if (!passThrough) {
      throw new ProxyError(400, ProxyErrorCode.INVALID_HEADER,
        `${MemoryHeader.UPSTREAM_AUTHORIZATION} is not accepted: the proxy uses its configured upstream key (set proxy.pass_through_auth to allow it)`,
        MemoryHeader.UPSTREAM_AUTHORIZATION);
    }
    return /^\S+\s+\S/.test(presented) ? presented : `Bearer ${presented}`;
  }
  return configuredKey !== '' ? `Bearer ${configuredKey}` : undefined;
}

function single(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  const joined = Array.isArray(value) ? value.join(', ') : value;
  if (joined === undefined) return undefined;
  const trimmed = joined.trim();
  return trimmed === '' ? undefined : trimmed;
}

function text(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = single(headers, name);
  return value === undefined ? undefined : decode(value);
}

function list(headers: IncomingHttpHeaders, name: string): string[] {
  const value = single(headers, name);
  if (value === undefined) return [];
  return value.split(',').map((item) => decode(item.trim())).filter((item) => item !== '');
}

/** Percent-decoding when the value is well-formed percent-encoding, otherwise the value as sent. */
function decode(value: string): string {
  if (!/%[0-9A-Fa-f]{2}/.test(value)) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function checkLabel(label: string, header: string, rules: HeaderRules): string {
  const trimmed = label.trim();
  if (trimmed === '') invalid(header, 'must not hold a blank label');
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(trimmed)) invalid(header, 'must not contain control characters');
  if (trimmed.length > rules.maxLabelChars) invalid(header, `holds a label longer than ${rules.maxLabelChars} characters`);
  return trimmed;
}

function folderOf(folder: string, header: string, rules: HeaderRules): string {
  try {
    return rules.normalizeFolder(folder, header);
  } catch (error) {
    if (error instanceof ValidationError) {
      throw new ProxyError(400, ProxyErrorCode.INVALID_HEADER, error.message, header, { cause: error });
    }
    throw error;
  }
}

function invalid(header: string, problem: string): never {
  throw new ProxyError(400, ProxyErrorCode.INVALID_HEADER, `${header} ${problem}`, header);
}
