import { useEffect, useState } from 'preact/hooks';
import { api, type ListRequest } from '../api-client.js';
import type { SortField } from '../api-types.js';
import { FolderTree } from '../components/folder-tree.js';
import { ImportanceMeter, StatusBadge } from '../components/badges.js';
import { Pager } from '../components/pager.js';
import { formatDate, formatNumber, formatRelative, plural } from '../format.js';
import { useAsync, useDocumentTitle } from '../hooks.js';
import { href, Link, navigate } from '../router.js';

const SORTS: Array<[SortField, string]> = [
  ['updated_at', 'Last updated'], ['created_at', 'Created'], ['importance_score', 'Importance'], ['label', 'Label'],
];
const PAGE_SIZES = [25, 50, 100];

/** The list's state lives in the URL: filters, sort and page survive reloads and the Back button. */
function readRequest(params: URLSearchParams): ListRequest {
  const bool = (name: string) => (params.get(name) === 'true' ? true : params.get(name) === 'false' ? false : undefined);
  const sort = (params.get('sort') ?? 'updated_at') as SortField;
  const pageSize = Number(params.get('page_size') ?? 25);
  return {
    page: Math.max(1, Number(params.get('page') ?? 1) || 1),
    page_size: PAGE_SIZES.includes(pageSize) ? pageSize : 25,
    sort: SORTS.some(([value]) => value === sort) ? sort : 'updated_at',
    order: params.get('order') === 'asc' ? 'asc' : 'desc',
    label: params.get('label') || undefined,
    folder: params.get('folder') || undefined,
    pinned: bool('pinned'),
    archived: bool('archived'),
  };
}

export function ConversationsView({ params }: { params: URLSearchParams }) {
  const request = readRequest(params);
  useDocumentTitle(request.folder ? `Conversations in ${request.folder}` : 'Conversations');
  const key = JSON.stringify(request);
  const list = useAsync(() => api.listConversations(request), [key]);
  const folders = useAsync(() => api.folders(), []);
  const [labelDraft, setLabelDraft] = useState(request.label ?? '');
  useEffect(() => setLabelDraft(request.label ?? ''), [request.label]);

  const go = (changes: Partial<ListRequest>) => {
    const next = { ...request, page: 1, ...changes };
    navigate(href('/', {
      folder: next.folder, label: next.label, pinned: next.pinned, archived: next.archived,
      sort: next.sort === 'updated_at' ? undefined : next.sort, order: next.order === 'desc' ? undefined : next.order,
      page: next.page === 1 ? undefined : next.page, page_size: next.page_size === 25 ? undefined : next.page_size,
    }));
  };
  const triState = (value: boolean | undefined) => (value === undefined ? '' : String(value));
  const parseTri = (value: string) => (value === '' ? undefined : value === 'true');

  return (
    <div class="browse">
      <aside class="browse-folders panel" aria-labelledby="folders-heading">
        <h2 id="folders-heading">Folders</h2>
        {folders.error ? <p class="callout callout-error" role="alert">{folders.error}</p> : null}
        {folders.data ? (
          <FolderTree folders={folders.data.folders} selected={request.folder} onSelect={(folder) => go({ folder })} />
        ) : folders.loading ? <p class="muted">Loading folders…</p> : null}
      </aside>

      <section class="browse-list" aria-labelledby="list-heading">
        <div class="section-head">
          <h1 id="list-heading">Conversations{request.folder ? <> in <code>{request.folder}</code></> : null}</h1>
          {list.data ? <span class="muted">{formatNumber(list.data.total)} found</span> : null}
        </div>

        <form class="filters panel" aria-label="Filters" onSubmit={(event) => { event.preventDefault(); go({ label: labelDraft.trim() || undefined }); }}>
          <div class="field field-double">
            <label for="filter-label">Label</label>
            <div class="inline">
              <input id="filter-label" type="search" value={labelDraft} placeholder="exact label"
                onInput={(event) => setLabelDraft(event.currentTarget.value)} />
              <button type="submit">Apply</button>
            </div>
          </div>
          <div class="field">
            <label for="filter-folder">Folder</label>
            <input id="filter-folder" type="text" value={request.folder ?? ''} placeholder="/work" key={request.folder ?? ''}
              onChange={(event) => go({ folder: event.currentTarget.value.trim() || undefined })} />
          </div>
          <div class="field">
            <label for="filter-pinned">Pinned</label>
            <select id="filter-pinned" value={triState(request.pinned)} onChange={(event) => go({ pinned: parseTri(event.currentTarget.value) })}>
              <option value="">Any</option><option value="true">Pinned</option><option value="false">Not pinned</option>
            </select>
          </div>
          <div class="field">
            <label for="filter-archived">Status</label>
            <select id="filter-archived" value={triState(request.archived)} onChange={(event) => go({ archived: parseTri(event.currentTarget.value) })}>
              <option value="">Any</option><option value="false">Active</option><option value="true">Archived</option>
            </select>
          </div>
          <div class="field">
            <label for="sort">Sort by</label>
            <select id="sort" value={request.sort} onChange={(event) => go({ sort: event.currentTarget.value as SortField })}>
              {SORTS.map(([value, text]) => <option key={value} value={value}>{text}</option>)}
            </select>
          </div>
          <div class="field">
            <label for="order">Order</label>
            <select id="order" value={request.order} onChange={(event) => go({ order: event.currentTarget.value === 'asc' ? 'asc' : 'desc' })}>
              <option value="desc">Descending</option><option value="asc">Ascending</option>
            </select>
          </div>
          <div class="field">
            <label for="page-size">Per page</label>
            <select id="page-size" value={String(request.page_size)} onChange={(event) => go({ page_size: Number(event.currentTarget.value) })}>
              {PAGE_SIZES.map((size) => <option key={size} value={String(size)}>{size}</option>)}
            </select>
          </div>
          {request.label || request.folder || request.pinned !== undefined || request.archived !== undefined ? (
            <div class="field field-end">
              <button type="button" class="quiet" onClick={() => navigate('/')}>Clear filters</button>
            </div>
          ) : null}
        </form>

        {list.error ? <p class="callout callout-error" role="alert">{list.error}</p> : null}
        <div aria-busy={list.loading} class={list.loading ? 'loading' : undefined}>
          {list.data && list.data.results.length === 0 ? <p class="empty panel">No conversations match.</p> : null}
          {list.data && list.data.results.length > 0 ? (
            <ol class="conversation-list" aria-label="Conversations">
              {list.data.results.map((item) => (
                <li key={item.conversation_id} class="conversation-row">
                  <div class="conversation-main">
                    <Link href={`/conversations/${item.conversation_id}`} class="conversation-label">{item.label}</Link>
                    <StatusBadge status={item.metadata.status} pinned={item.metadata.pinned} />
                    <div class="muted small">
                      <Link href={href('/', { folder: item.folder === '/' ? undefined : item.folder })} class="folder-link">{item.folder}</Link>
                      {' · '}{plural(item.metadata.message_count, 'message')} · {plural(item.metadata.word_count, 'word')}
                    </div>
                  </div>
                  <ImportanceMeter value={item.metadata.importance_score} />
                  <time class="muted small" dateTime={item.timestamp} title={formatDate(item.timestamp)}>
                    {formatRelative(item.timestamp)}
                  </time>
                </li>
              ))}
            </ol>
          ) : null}
        </div>
        {list.data ? (
          <Pager label="Conversation pages" page={request.page} pageSize={request.page_size} total={list.data.total}
            onPage={(page) => go({ page })} />
        ) : null}
      </section>
    </div>
  );
}
