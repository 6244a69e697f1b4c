import { useEffect, useState } from 'preact/hooks';
import { api } from '../api-client.js';
import type { SearchFilters, SearchMode } from '../api-types.js';
import { excerpt, Highlight, queryTerms } from '../components/highlight.js';
import { Pager } from '../components/pager.js';
import { formatDate, formatNumber, formatScore } from '../format.js';
import { useAsync, useDocumentTitle } from '../hooks.js';
import { href, Link, navigate } from '../router.js';

type Mode = SearchMode | 'fulltext';
const MODES: Array<[Mode, string, string]> = [
  ['hybrid', 'Hybrid', 'meaning and words, fused'],
  ['semantic', 'Semantic', 'meaning only (vectors)'],
  ['keyword', 'Keyword', 'any of the words (BM25)'],
  ['fulltext', 'Full text', 'FTS syntax: "phrases", AND, OR, NOT, prefix*'],
];
const PAGE_SIZE = 20;
const MAX_RESULTS = 1000;

interface Form {
  q: string; mode: Mode; folder: string; label: string; imin: string; imax: string; from: string; to: string; archived: string;
}

const readForm = (params: URLSearchParams): Form => {
  const mode = params.get('mode') as Mode | null;
  return {
    q: params.get('q') ?? '',
    mode: MODES.some(([value]) => value === mode) ? mode! : 'hybrid',
    folder: params.get('folder') ?? '', label: params.get('label') ?? '',
    imin: params.get('imin') ?? '', imax: params.get('imax') ?? '',
    from: params.get('from') ?? '', to: params.get('to') ?? '',
    archived: params.get('archived') ?? '',
  };
};

const toFilters = (form: Form): SearchFilters => {
  const filters: SearchFilters = {};
  if (form.folder.trim()) filters.folder = form.folder.trim();
  if (form.label.trim()) filters.label = form.label.trim();
  if (form.imin) filters.importance_min = Number(form.imin);
  if (form.imax) filters.importance_max = Number(form.imax);
  if (form.from) filters.date_from = `${form.from}T00:00:00Z`;
  if (form.to) filters.date_to = `${form.to}T23:59:59.999Z`;
  if (form.archived) filters.archived = form.archived === 'true';
  return filters;
};

interface Row {
  conversationId: string; messageId: string; position?: number; score: number; content: string;
  label: string; folder: string; timestamp: string; role: string;
}

export function SearchView({ params }: { params: URLSearchParams }) {
  const submitted = readForm(params);
  const page = Math.max(1, Number(params.get('page') ?? 1) || 1);
  const [form, setForm] = useState<Form>(submitted);
  const paramsKey = params.toString();
  useEffect(() => setForm(readForm(params)), [paramsKey]);
  useDocumentTitle(submitted.q ? `Search: ${submitted.q}` : 'Search');

  const results = useAsync(async () => {
    if (!submitted.q.trim()) return undefined;
    const filters = toFilters(submitted);
    const offset = (page - 1) * PAGE_SIZE;
    if (submitted.mode === 'fulltext') {
      const response = await api.fullText(submitted.q, filters, PAGE_SIZE, offset);
      return {
        total: response.total, mode: 'full text',
        rows: response.results.map((hit): Row => ({
          conversationId: hit.conversation_id, messageId: hit.id, score: hit.score, content: hit.content,
          label: hit.label, folder: hit.folder, timestamp: hit.timestamp, role: hit.role,
        })),
      };
    }
    const response = await api.query(submitted.q, submitted.mode, filters, PAGE_SIZE, offset);
    return {
      total: response.total, mode: response.mode,
      rows: response.results.map((hit): Row => ({
        conversationId: hit.conversation_id, messageId: hit.message_id, position: hit.metadata.position, score: hit.score,
        content: hit.content, label: hit.label, folder: hit.folder, timestamp: hit.timestamp, role: hit.metadata.role,
      })),
    };
  }, [paramsKey]);

  const submit = (next: Form, nextPage = 1) => navigate(href('/search', {
    q: next.q.trim(), mode: next.mode === 'hybrid' ? undefined : next.mode, folder: next.folder.trim(), label: next.label.trim(),
    imin: next.imin, imax: next.imax, from: next.from, to: next.to, archived: next.archived,
    page: nextPage === 1 ? undefined : nextPage,
  }));
  const set = (name: keyof Form) => (event: { currentTarget: { value: string } }) =>
    setForm((previous) => ({ ...previous, [name]: event.currentTarget.value }));
  const terms = queryTerms(submitted.q);
  const data = results.data;

  return (
    <section aria-labelledby="search-heading">
      <h1 id="search-heading">Search</h1>
      <form class="panel search-form" role="search" onSubmit={(event) => { event.preventDefault(); submit(form); }}>
        <div class="search-box">
          <label for="search-query" class="visually-hidden">Search for</label>
          <input id="search-query" type="search" value={form.q} onInput={set('q')} placeholder="What are you looking for?" autoFocus />
          <button type="submit" class="primary">Search</button>
        </div>
        <fieldset class="modes">
          <legend>Mode</legend>
          {MODES.map(([value, text, hint]) => (
            <label key={value} class="mode-option">
              <input type="radio" name="mode" value={value} checked={form.mode === value}
                onChange={() => setForm((previous) => ({ ...previous, mode: value }))} />
              <span><strong>{text}</strong> <span class="muted small">{hint}</span></span>
            </label>
          ))}
        </fieldset>
        <details class="search-filters" open={Boolean(submitted.folder || submitted.label || submitted.imin || submitted.imax || submitted.from || submitted.to || submitted.archived)}>
          <summary>Filters</summary>
          <div class="filters">
            <div class="field"><label for="sf-folder">Folder</label><input id="sf-folder" value={form.folder} onInput={set('folder')} placeholder="/work" /></div>
            <div class="field"><label for="sf-label">Label</label><input id="sf-label" value={form.label} onInput={set('label')} /></div>
            <div class="field">
              <label for="sf-imin">Importance from</label>
              <select id="sf-imin" value={form.imin} onChange={set('imin')}>
                <option value="">any</option>{range10.map((value) => <option key={value} value={String(value)}>{value}</option>)}
              </select>
            </div>
            <div class="field">
              <label for="sf-imax">Importance to</label>
              <select id="sf-imax" value={form.imax} onChange={set('imax')}>
                <option value="">any</option>{range10.map((value) => <option key={value} value={String(value)}>{value}</option>)}
              </select>
            </div>
            <div class="field"><label for="sf-from">From (UTC)</label><input id="sf-from" type="date" value={form.from} onInput={set('from')} /></div>
            <div class="field"><label for="sf-to">To (UTC)</label><input id="sf-to" type="date" value={form.to} onInput={set('to')} /></div>
            <div class="field">
              <label for="sf-archived">Status</label>
              <select id="sf-archived" value={form.archived} onChange={set('archived')}>
                <option value="">Any</option><option value="false">Active</option><option value="true">Archived</option>
              </select>
            </div>
          </div>
        </details>
      </form>

      {results.error ? <p class="callout callout-error" role="alert">{results.error}</p> : null}
      {data ? (
        <div aria-busy={results.loading} class={results.loading ? 'loading' : undefined}>
          <p class="muted" aria-live="polite">
            {formatNumber(data.total)}{data.total >= MAX_RESULTS ? '+' : ''} matches · {data.mode}
            {submitted.mode === 'hybrid' && data.mode === 'keyword' ? ' (vectors unavailable: answered from full text)' : ''}
          </p>
          {data.rows.length === 0 ? <p class="empty panel">Nothing found. Try another mode or fewer filters.</p> : (
            <ol class="results" start={(page - 1) * PAGE_SIZE + 1}>
              {data.rows.map((row) => (
                <li key={row.messageId} class="result">
                  <div class="result-head">
                    <Link class="result-link" href={href(`/conversations/${row.conversationId}`, { m: row.messageId, pos: row.position, q: submitted.q })}>
                      {row.label}
                    </Link>
                    <span class="muted small">{row.folder}</span>
                    <span class="score" title="Score (0–1)">{formatScore(row.score)}</span>
                  </div>
                  <p class="result-content"><span class="role">{row.role}</span> <Highlight text={excerpt(row.content, terms)} terms={terms} /></p>
                  <time class="muted small" dateTime={row.timestamp}>{formatDate(row.timestamp)}</time>
                </li>
              ))}
            </ol>
          )}
          {data.total > PAGE_SIZE ? (
            <Pager label="Result pages" page={page} pageSize={PAGE_SIZE} total={Math.min(data.total, MAX_RESULTS)}
              onPage={(next) => submit(submitted, next)} />
          ) : null}
        </div>
      ) : results.loading && submitted.q ? <p class="muted">Searching…</p> : null}
    </section>
  );
}

const range10 = Array.from({ length: 10 }, (_, index) => index + 1);
