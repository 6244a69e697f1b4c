import { ErrorCode, ValidationError } from '../../domain/errors.js';
import { normalizeFolder } from '../../domain/folder-path.js';
import { parseTimestamp } from '../../domain/timestamp.js';
import type { Clock } from '../../ports/clock.js';
import type { ArchiveFilter, ConversationArchive, ImportConflict, ImportedConversation, ImportOutcome } from '../../ports/conversation-archive.js';
import type { ConversationStore } from '../../ports/conversation-store.js';
import { exportWriter, FORMAT_INFO, type ExportFormat } from './export.formats.js';
import { elementPlace, linePlace, parseConversationRecord, type ImportLimits, type RecordPlace } from './import-records.js';
import { WritesInFlight } from '../../domain/writes-in-flight.js';
import { nextTurn } from '../next-turn.js';

export interface ExportServiceDeps {
  store: ConversationStore;
  archive: ConversationArchive;
  clock: Clock;
  limits: ImportLimits;
  /** After an import stored messages (to wake the embedding worker). */
  onMessagesStored?: () => void;
  /** After an import replaced conversations, with the keys of their removed messages (to drop their vectors). */
  onMessagesRemoved?: (keys: readonly number[]) => void;
  /** Settles once the reads already answered have their access stored: an export carries last_accessed. */
  accessesRecorded: () => Promise<void>;
  /** Counts imports while they wait on the store (absent: a counter no one reads). */
  writes?: WritesInFlight;
}

export interface ExportRequest {
  format: ExportFormat;
  startDate?: string;
  endDate?: string;
  folder?: string;
}

export interface PreparedExport {
  contentType: string;
  filename: string;
  body: AsyncIterable<string>;
}

/** Import records checked between turns of the event loop (3-8 ms of ten-message records on a busy machine). */
export const RECORDS_A_STEP = 25;
const CONVERSATION_PAGE = 200;
const MESSAGE_PAGE = 500;

/**
 * Export streams every matching conversation with all its messages, page by
 * page, so memory stays flat however much is exported. Import reads the json
 * or jsonl export back: every record is checked before anything is written,
 * then all are stored in one transaction.
 */
export class ExportService {
  private readonly writes: WritesInFlight;

  constructor(private readonly deps: ExportServiceDeps) {
    this.writes = deps.writes ?? new WritesInFlight();
  }

  /** Validates the request (throwing 400s before anything is sent) and returns the stream to send. */
  prepareExport(request: ExportRequest): PreparedExport {
    const filter: ArchiveFilter = {};
    const echo: Record<string, string> = {};
    if (request.startDate !== undefined) echo.start_date = filter.from = parseDate(request.startDate, 'start_date', 'start');
    if (request.endDate !== undefined) echo.end_date = filter.to = parseDate(request.endDate, 'end_date', 'end');
    if (filter.from !== undefined && filter.to !== undefined && filter.from > filter.to) {
      throw new ValidationError('start_date must not be after end_date', ErrorCode.VALIDATION_ERROR, 'start_date');
    }
    if (request.folder !== undefined) echo.folder = filter.folder = normalizeFolder(request.folder, this.deps.limits.folder);
    const exportedAt = this.deps.clock.now().toISOString();
    const info = FORMAT_INFO[request.format];
    return {
      contentType: info.contentType,
      filename: `memsvc-export-${exportedAt.replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')}.${info.extension}`,
      body: this.stream(request.format, filter, exportedAt, echo),
    };
  }

  private async *stream(format: ExportFormat, filter: ArchiveFilter, exportedAt: string, echo: Record<string, string>) {
    const writer = exportWriter(format, { exportedAt, filter: echo });
    await this.deps.accessesRecorded();
    yield writer.open();
    let count = 0;
    let cursor = null;
    for (;;) {
      const page = await this.deps.archive.page(filter, cursor, CONVERSATION_PAGE);
      if (page.length === 0) break;
      for (const conversation of page) {
        yield writer.begin(conversation, count);
        let index = 0;
        for (let offset = 0; ; offset += MESSAGE_PAGE) {
          const { items } = await this.deps.store.listMessages(conversation.id, { offset, limit: MESSAGE_PAGE });
          // Yielding per page (not per message) keeps the stream's chunks a useful size.
          let chunk = '';
          for (const message of items) chunk += writer.message(message, index++);
          if (chunk) yield chunk;
          if (items.length < MESSAGE_PAGE) break;
        }
        yield writer.end();
        count += 1;
      }
      const last = page[page.length - 1]!;
      cursor = { createdAt: last.createdAt, id: last.id };
    }
    yield writer.close(count);
  }

  /** `body` is a json export document (or an array of records) or the text of a jsonl export. */
  async importConversations(body: unknown, onConflict: ImportConflict): Promise<ImportOutcome> {
    return this.storeImport(await this.prepareImport(body), onConflict);
  }

  /**
   * Checks every record of an import body and turns it into what the store imports; throws on the first bad one.
   * Turns the event loop every RECORDS_A_STEP records: memsvc import's batches of 200 ten-message records took
   * 25-60 ms of the request thread in one piece on a busy machine, and 250 ms with a collection on a slow one.
   */
  async prepareImport(body: unknown): Promise<ImportedConversation[]> {
    const now = this.deps.clock.now().toISOString();
    const records = typeof body === 'string' ? parseJsonLines(body) : documentRecords(body);
    const prepared: ImportedConversation[] = [];
    for (let i = 0; i < records.length; i += 1) {
      if (i > 0 && i % RECORDS_A_STEP === 0) await nextTurn();
      prepared.push(parseConversationRecord(records[i]!.raw, records[i]!.place, this.deps.limits, now));
    }
    return prepared;
  }

  /** Stores prepared records, all or none. */
  async storeImport(parsed: readonly ImportedConversation[], onConflict: ImportConflict): Promise<ImportOutcome> {
    const outcome = await this.writes.around(() => this.deps.archive.importAll(parsed, onConflict));
    if (outcome.removedMessageKeys.length > 0) this.deps.onMessagesRemoved?.(outcome.removedMessageKeys);
    if (outcome.messages > 0) this.deps.onMessagesStored?.();
    return outcome;
  }
}

function parseJsonLines(text: string): Array<{ raw: unknown; place: RecordPlace }> {
  const records: Array<{ raw: unknown; place: RecordPlace }> = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i]!.trim();
    if (line === '') continue;
    try {
      records.push({ raw: JSON.parse(line), place: linePlace(i + 1) });
    } catch {
      throw new ValidationError(`line ${i + 1} is not valid JSON`, ErrorCode.INVALID_JSON);
    }
  }
  return records;
}

function documentRecords(body: unknown): Array<{ raw: unknown; place: RecordPlace }> {
  if (Array.isArray(body)) return body.map((raw, i) => ({ raw, place: elementPlace('', i) }));
  if (typeof body === 'object' && body !== null && Array.isArray((body as { conversations?: unknown }).conversations)) {
    return (body as { conversations: unknown[] }).conversations.map((raw, i) => ({ raw, place: elementPlace('conversations', i) }));
  }
  throw new ValidationError('Send a json export ({"conversations": [...]}) as application/json, or a jsonl export as application/x-ndjson');
}

/** ISO 8601 date-time (zone-less means UTC), or a date: a start date means its first instant, an end date its last. */
function parseDate(value: string, field: string, edge: 'start' | 'end'): string {
  const parsed = parseTimestamp(value);
  if (parsed === null) throw new ValidationError(`${field} must be an ISO 8601 date (2025-01-31) or date-time`, ErrorCode.VALIDATION_ERROR, field);
  if (edge === 'end' && /^\d{4}-\d{2}-\d{2}$/.test(value.trim())) return new Date(Date.parse(parsed) + 86_400_000 - 1).toISOString();
  return parsed;
}
