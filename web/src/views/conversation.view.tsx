import { useEffect, useRef, useState } from 'preact/hooks';
import { api, errorText } from '../api-client.js';
import type { Conversation, LabelSuggestion, Message, Role, Summary, SummaryLevel } from '../api-types.js';
import { EmbeddingBadge, ImportanceMeter, StatusBadge } from '../components/badges.js';
import { Dialog } from '../components/dialog.js';
import { Highlight, queryTerms } from '../components/highlight.js';
import { Pager } from '../components/pager.js';
import { formatDate, formatNumber, formatRelative, plural } from '../format.js';
import { notify, runAction, useAsync, useCanWrite, useDocumentTitle } from '../hooks.js';
import { href, Link, navigate } from '../router.js';

const MESSAGE_PAGE = 50;
const LOOKUP_PAGE = 1000;

/**
 * Where a message sits, for links from full-text hits that carry only its id: pages through the
 * conversation (at most 10 requests for the largest one) until it is found.
 */
async function findPosition(id: string, messageId: string): Promise<number | null> {
  for (let page = 1; page <= 20; page++) {
    const result = await api.messages(id, page, LOOKUP_PAGE);
    const found = result.results.find((message) => message.id === messageId);
    if (found) return found.position;
    if (page * LOOKUP_PAGE >= result.total) return null;
  }
  return null;
}

export function ConversationView({ id, params }: { id: string; params: URLSearchParams }) {
  const target = params.get('m') ?? undefined;
  const terms = queryTerms(params.get('q') ?? '');
  const conversation = useAsync(() => api.conversation(id), [id]);
  const data = conversation.data;
  useDocumentTitle(data ? data.label : 'Conversation');

  // The message page: given in the URL, or the page holding the linked message.
  const [page, setPage] = useState<number | null>(null);
  useEffect(() => {
    let cancelled = false;
    const explicit = Number(params.get('page'));
    const position = params.get('pos');
    if (explicit > 0) setPage(explicit);
    else if (position !== null && Number.isInteger(Number(position))) setPage(Math.floor(Number(position) / MESSAGE_PAGE) + 1);
    else if (target) {
      setPage(null);
      findPosition(id, target).then((found) => { if (!cancelled) setPage(found === null ? 1 : Math.floor(found / MESSAGE_PAGE) + 1); },
        () => { if (!cancelled) setPage(1); });
    } else setPage(1);
    return () => { cancelled = true; };
  }, [id, target, params.get('page'), params.get('pos')]);

  const messages = useAsync(() => (page === null ? Promise.resolve(undefined) : api.messages(id, page, MESSAGE_PAGE)), [id, page]);

  // Bring the linked message into view once it is on screen.
  const targetRef = useRef<HTMLLIElement>(null);
  useEffect(() => {
    if (targetRef.current) {
      targetRef.current.scrollIntoView({ block: 'center' });
      targetRef.current.focus({ preventScroll: true });
    }
  }, [messages.data, target]);

  // Embeddings finish in the background: poll while any message on the page is still pending.
  const pending = messages.data?.results.some((message) => message.embedding_status === 'pending') ?? false;
  useEffect(() => {
    if (!pending) return undefined;
    const timer = setTimeout(messages.reload, 2000);
    return () => clearTimeout(timer);
  }, [pending, messages.data]);

  const refresh = () => { conversation.reload(); messages.reload(); };
  // A key with only read access here sees the conversation without the controls that would be refused.
  const writable = useCanWrite(data?.folder);
  const goToPage = (next: number) => navigate(href(`/conversations/${id}`, { page: next }), { replace: true });

  if (conversation.error) {
    return (
      <section class="panel">
        <h1>Conversation</h1>
        <p class="callout callout-error" role="alert">{conversation.error}</p>
        <p><Link href="/">Back to the conversations</Link></p>
      </section>
    );
  }
  if (!data) return <p class="muted" aria-busy="true">Loading the conversation…</p>;

  return (
    <div class="conversation">
      <nav aria-label="Breadcrumb" class="breadcrumb">
        <Link href="/">Conversations</Link> <span aria-hidden="true">›</span>{' '}
        <Link href={href('/', { folder: data.folder === '/' ? undefined : data.folder })}>{data.folder}</Link>
      </nav>
      <header class="conversation-head">
        <h1>{data.label} <StatusBadge status={data.status} pinned={data.pinned} /></h1>
        <Metadata conversation={data} />
      </header>

      <div class="conversation-body">
        <section class="messages panel" aria-labelledby="messages-heading">
          <div class="section-head">
            <h2 id="messages-heading">Messages</h2>
            <span class="muted">{plural(data.message_count, 'message')} in {plural(data.session_count, 'session')}</span>
          </div>
          {messages.error ? <p class="callout callout-error" role="alert">{messages.error}</p> : null}
          {messages.data && messages.data.total === 0 ? <p class="empty">No messages yet.</p> : null}
          {messages.data ? (
            <ol class="message-list" start={(messages.data.page - 1) * MESSAGE_PAGE + 1} aria-busy={messages.loading}>
              {messages.data.results.map((message) => (
                <MessageItem key={message.id} message={message} isTarget={message.id === target}
                  terms={message.id === target ? terms : []} targetRef={targetRef} />
              ))}
            </ol>
          ) : <p class="muted">Loading messages…</p>}
          {messages.data && messages.data.total > MESSAGE_PAGE ? (
            <Pager label="Message pages" page={messages.data.page} pageSize={MESSAGE_PAGE} total={messages.data.total} onPage={goToPage} />
          ) : null}
          {writable ? <AppendForm id={id} onAppended={(count) => {
            conversation.reload();
            goToPage(Math.max(1, Math.ceil(count / MESSAGE_PAGE)));
            messages.reload();
          }} /> : <p class="muted">This key may read this folder, not change it.</p>}
        </section>

        <aside class="conversation-side">
          {writable ? <Actions conversation={data} onChanged={refresh} /> : null}
          {writable ? <Summaries id={id} /> : null}
          {writable ? <LabelSuggestions conversation={data} onApplied={refresh} /> : null}
        </aside>
      </div>
    </div>
  );
}

function Metadata({ conversation: c }: { conversation: Conversation }) {
  return (
    <dl class="metadata">
      <div><dt>Status</dt><dd>{c.status}{c.pinned ? ', pinned' : ''}</dd></div>
      <div><dt>Importance</dt><dd><ImportanceMeter value={c.importance_score} /></dd></div>
      <div><dt>Folder</dt><dd><code>{c.folder}</code></dd></div>
      <div><dt>Messages</dt><dd>{formatNumber(c.message_count)}</dd></div>
      <div><dt>Words</dt><dd>{formatNumber(c.word_count)}</dd></div>
      <div><dt>Sessions</dt><dd>{formatNumber(c.session_count)}</dd></div>
      <div><dt>Created</dt><dd><time dateTime={c.created_at}>{formatDate(c.created_at)}</time></dd></div>
      <div><dt>Updated</dt><dd><time dateTime={c.updated_at} title={formatDate(c.updated_at)}>{formatRelative(c.updated_at)}</time></dd></div>
      <div><dt>Id</dt><dd><code class="id">{c.id}</code></dd></div>
    </dl>
  );
}

function MessageItem({ message, isTarget, terms, targetRef }:
  { message: Message; isTarget: boolean; terms: string[]; targetRef: { current: HTMLLIElement | null } }) {
  return (
    <li class={`message message-${message.role}${isTarget ? ' message-target' : ''}`} id={`message-${message.id}`}
      ref={isTarget ? targetRef : undefined} tabIndex={isTarget ? -1 : undefined}
      aria-label={isTarget ? `Matched message ${message.position + 1}` : undefined}>
      <div class="message-meta">
        <span class="role">{message.role}</span>
        {message.name !== null ? <span class="author">{message.name}</span> : null}
        <span class="muted small">#{message.position + 1}</span>
        <time class="muted small" dateTime={message.timestamp}>{formatDate(message.timestamp)}</time>
        <EmbeddingBadge state={message.embedding_status} />
      </div>
      <div class="message-content"><Highlight text={message.content} terms={terms} /></div>
    </li>
  );
}

function AppendForm({ id, onAppended }: { id: string; onAppended: (messageCount: number) => void }) {
  const [role, setRole] = useState<Role>('user');
  const [content, setContent] = useState('');
  const [busy, setBusy] = useState(false);
  return (
    <form class="append" aria-labelledby="append-heading" onSubmit={async (event) => {
      event.preventDefault();
      if (!content.trim()) { notify('Write the message first.', 'error'); return; }
      setBusy(true);
      try {
        const result = await api.append(id, role, content);
        setContent('');
        notify('Message appended.');
        const last = result.messages[result.messages.length - 1];
        onAppended(last ? last.position + 1 : 1);
      } catch (error) {
        notify(errorText(error), 'error');
      } finally {
        setBusy(false);
      }
    }}>
      <h3 id="append-heading">Append a message</h3>
      <div class="inline">
        <label for="append-role">Role</label>
        <select id="append-role" value={role} onChange={(event) => setRole(event.currentTarget.value as Role)}>
          <option value="user">user</option><option value="assistant">assistant</option><option value="system">system</option>
        </select>
      </div>
      <label for="append-content" class="visually-hidden">Message</label>
      <textarea id="append-content" rows={3} value={content} placeholder="Message text"
        onInput={(event) => setContent(event.currentTarget.value)} />
      <button type="submit" class="primary" disabled={busy}>Append message</button>
    </form>
  );
}

function Actions({ conversation: c, onChanged }: { conversation: Conversation; onChanged: () => void }) {
  const [label, setLabel] = useState(c.label);
  const [folder, setFolder] = useState(c.folder);
  const [importance, setImportance] = useState(c.importance_score);
  const [confirming, setConfirming] = useState(false);
  useEffect(() => { setLabel(c.label); setFolder(c.folder); setImportance(c.importance_score); }, [c.label, c.folder, c.importance_score]);

  const act = async (action: () => Promise<unknown>, success: string) => { if (await runAction(action, success)) onChanged(); };

  return (
    <section class="panel actions" aria-labelledby="actions-heading">
      <h2 id="actions-heading">Actions</h2>
      <div class="button-row">
        {c.pinned
          ? <button type="button" onClick={() => act(() => api.setImportance(c.id, 5), 'Unpinned (importance 5).')}>Unpin</button>
          : <button type="button" onClick={() => act(() => api.pin(c.id), 'Pinned.')}>Pin</button>}
        {c.status === 'archived'
          ? <button type="button" onClick={() => act(() => api.unarchive(c.id), 'Restored to active.')}>Unarchive</button>
          : <button type="button" onClick={() => act(() => api.archive(c.id), 'Archived.')}>Archive</button>}
        <button type="button" class="danger" onClick={() => setConfirming(true)}>Delete…</button>
      </div>

      <form class="stacked" onSubmit={(event) => { event.preventDefault(); void act(() => api.relabel(c.id, label.trim(), c.folder), 'Label changed.'); }}>
        <label for="action-label">Label</label>
        <div class="inline">
          <input id="action-label" value={label} onInput={(event) => setLabel(event.currentTarget.value)} required maxLength={200} />
          <button type="submit" disabled={label.trim() === c.label || !label.trim()}>Relabel</button>
        </div>
      </form>
      <form class="stacked" onSubmit={(event) => { event.preventDefault(); void act(() => api.move(c.id, folder.trim()), 'Moved.'); }}>
        <label for="action-folder">Folder</label>
        <div class="inline">
          <input id="action-folder" value={folder} onInput={(event) => setFolder(event.currentTarget.value)} required placeholder="/work/backend" />
          <button type="submit" disabled={folder.trim() === c.folder || !folder.trim()}>Move</button>
        </div>
      </form>
      <form class="stacked" onSubmit={(event) => { event.preventDefault(); void act(() => api.setImportance(c.id, importance), `Importance set to ${importance}.`); }}>
        <label for="action-importance">Importance (1–10; 10 pins)</label>
        <div class="inline">
          <select id="action-importance" value={String(importance)} onChange={(event) => setImportance(Number(event.currentTarget.value))}>
            {Array.from({ length: 10 }, (_, index) => index + 1).map((value) => <option key={value} value={String(value)}>{value}</option>)}
          </select>
          <button type="submit" disabled={importance === c.importance_score}>Set importance</button>
        </div>
      </form>

      <Dialog open={confirming} title="Delete this conversation?" onClose={() => setConfirming(false)}>
        <p>
          “{c.label}” and its {plural(c.message_count, 'message')}, with their embeddings, will be deleted.
          This cannot be undone. Archiving keeps it out of the way instead.
        </p>
        <div class="button-row end">
          <button type="button" autoFocus onClick={() => setConfirming(false)}>Cancel</button>
          <button type="button" class="danger" onClick={async () => {
            setConfirming(false);
            if (await runAction(() => api.remove(c.id), `Deleted “${c.label}”.`)) navigate('/');
          }}>Delete permanently</button>
        </div>
      </Dialog>
    </section>
  );
}

function Summaries({ id }: { id: string }) {
  const [summary, setSummary] = useState<Summary | undefined>();
  const [busy, setBusy] = useState<SummaryLevel | null>(null);
  const [error, setError] = useState<string | undefined>();
  const [refresh, setRefresh] = useState(false);
  useEffect(() => { setSummary(undefined); setError(undefined); }, [id]);
  const load = async (level: SummaryLevel) => {
    setBusy(level);
    setError(undefined);
    try { setSummary(await api.summarize(id, level, refresh)); } catch (failure) { setError(errorText(failure)); } finally { setBusy(null); }
  };
  return (
    <section class="panel" aria-labelledby="summary-heading">
      <h2 id="summary-heading">Summary</h2>
      <div class="button-row" role="group" aria-label="Summary level">
        {(['daily', 'weekly', 'monthly'] as const).map((level) => (
          <button key={level} type="button" aria-pressed={summary?.level === level} disabled={busy !== null} onClick={() => load(level)}>
            {busy === level ? 'Summarizing…' : level[0]!.toUpperCase() + level.slice(1)}
          </button>
        ))}
      </div>
      <label class="checkbox"><input type="checkbox" checked={refresh} onChange={(event) => setRefresh(event.currentTarget.checked)} /> Regenerate</label>
      {error ? <p class="callout callout-error" role="alert">{error}</p> : null}
      {summary ? (
        <div class="summary" aria-live="polite">
          {summary.summary ? <p>{summary.summary}</p> : <p class="muted">{summary.note ?? 'Nothing was said in this window.'}</p>}
          <p class="muted small">
            {summary.level}: {formatDate(summary.window_start)} – {formatDate(summary.window_end)} · {summary.source_count} messages
            {summary.model ? ` · ${summary.model}` : ''}{summary.cached ? ' · cached' : ''}
          </p>
        </div>
      ) : null}
    </section>
  );
}

function LabelSuggestions({ conversation: c, onApplied }: { conversation: Conversation; onApplied: () => void }) {
  const [suggestions, setSuggestions] = useState<LabelSuggestion[] | undefined>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  useEffect(() => { setSuggestions(undefined); setError(undefined); }, [c.id]);
  return (
    <section class="panel" aria-labelledby="labels-heading">
      <h2 id="labels-heading">Label suggestions</h2>
      <button type="button" disabled={busy} onClick={async () => {
        setBusy(true);
        setError(undefined);
        try { setSuggestions((await api.suggestLabels(c.id)).suggestions); } catch (failure) { setError(errorText(failure)); } finally { setBusy(false); }
      }}>{busy ? 'Thinking…' : 'Suggest labels'}</button>
      {error ? <p class="callout callout-error" role="alert">{error}</p> : null}
      {suggestions && suggestions.length === 0 ? <p class="muted">No suggestions.</p> : null}
      {suggestions && suggestions.length > 0 ? (
        <ul class="suggestions">
          {suggestions.map((suggestion) => (
            <li key={suggestion.label}>
              <div>
                <strong>{suggestion.label}</strong>{suggestion.is_existing ? <span class="badge">existing</span> : null}
                <div class="muted small">{Math.round(suggestion.confidence * 100)}% · {suggestion.reason}</div>
              </div>
              <button type="button" disabled={suggestion.label === c.label}
                aria-label={`Use label ${suggestion.label}`}
                onClick={async () => { if (await runAction(() => api.relabel(c.id, suggestion.label, c.folder), `Label changed to “${suggestion.label}”.`)) onApplied(); }}>
                Use
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
