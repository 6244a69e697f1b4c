import { useState } from 'preact/hooks';
import { api, errorText } from '../api-client.js';
import type { ContextMessage } from '../api-types.js';
import { formatNumber, formatScore, estimateTokens, splitList } from '../format.js';
import { useDocumentTitle } from '../hooks.js';
import { href, Link } from '../router.js';

/** The server keeps this share of the budget free for a system prompt. */
const SYSTEM_PROMPT_RESERVE = 0.15;

interface Result {
  messages: ContextMessage[];
  budget: number;
  query: string;
}

export function ContextView() {
  useDocumentTitle('Context playground');
  const [query, setQuery] = useState('');
  const [budget, setBudget] = useState(4000);
  const [labels, setLabels] = useState('');
  const [excluded, setExcluded] = useState('');
  const [result, setResult] = useState<Result | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (!query.trim()) { setError('Write a query.'); return; }
    setBusy(true);
    setError(undefined);
    try {
      const messages = await api.assemble({
        query: query.trim(), context_budget: budget, preferred_labels: splitList(labels), excluded_folders: splitList(excluded),
      });
      setResult({ messages, budget, query: query.trim() });
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="context-heading">
      <h1 id="context-heading">Context playground</h1>
      <p class="muted">What would an LLM get for this query? Ranked messages packed into a token budget (1 token ≈ 4 characters).</p>
      <form class="panel context-form" onSubmit={submit}>
        <div class="field field-wide">
          <label for="context-query">Query</label>
          <textarea id="context-query" rows={2} value={query} onInput={(event) => setQuery(event.currentTarget.value)}
            placeholder="e.g. why did the migration fail?" />
        </div>
        <div class="field">
          <label for="context-budget">Budget (tokens)</label>
          <input id="context-budget" type="number" min={100} max={200000} step={100} value={budget}
            onInput={(event) => setBudget(Number(event.currentTarget.value) || 0)} />
        </div>
        <div class="field">
          <label for="context-labels">Preferred labels</label>
          <input id="context-labels" value={labels} onInput={(event) => setLabels(event.currentTarget.value)} placeholder="comma, separated"
            aria-describedby="context-labels-hint" />
          <span id="context-labels-hint" class="muted small">Boosted, comma-separated</span>
        </div>
        <div class="field">
          <label for="context-excluded">Excluded folders</label>
          <input id="context-excluded" value={excluded} onInput={(event) => setExcluded(event.currentTarget.value)} placeholder="/personal, /tmp"
            aria-describedby="context-excluded-hint" />
          <span id="context-excluded-hint" class="muted small">Subtrees left out, comma-separated</span>
        </div>
        <div class="field field-end">
          <button type="submit" class="primary" disabled={busy}>{busy ? 'Assembling…' : 'Assemble context'}</button>
        </div>
      </form>
      {error ? <p class="callout callout-error" role="alert">{error}</p> : null}
      {result ? <ContextResult result={result} /> : null}
    </section>
  );
}

function ContextResult({ result }: { result: Result }) {
  const { messages, budget } = result;
  const available = Math.floor(budget * (1 - SYSTEM_PROMPT_RESERVE));
  const reserve = budget - available;
  const tokens = messages.map((message) => estimateTokens(message.content));
  const used = tokens.reduce((sum, value) => sum + value, 0);
  const percent = (value: number) => `${((100 * value) / budget).toFixed(2)}%`;
  const conversations = new Set(messages.map((message) => message.conversation_id)).size;
  return (
    <section class="panel" aria-labelledby="context-result-heading">
      <h2 id="context-result-heading">Assembled context</h2>
      <p>
        <strong>{formatNumber(messages.length)}</strong> messages from {formatNumber(conversations)} conversations use{' '}
        <strong>{formatNumber(used)}</strong> of {formatNumber(available)} available tokens
        ({Math.round((100 * used) / Math.max(1, available))}%; {formatNumber(reserve)} of the {formatNumber(budget)} budget are kept for a system prompt).
      </p>
      <div class="budget-bar" role="img"
        aria-label={`Budget use: ${used} tokens of ${available} available, ${reserve} reserved`}>
        {messages.map((message, index) => (
          <span key={message.id} class={`budget-segment budget-segment-${index % 2}`} style={{ width: percent(tokens[index] ?? 0) }}
            title={`#${index + 1} ${message.metadata.label}: ${tokens[index]} tokens`} />
        ))}
        <span class="budget-free" style={{ width: percent(Math.max(0, available - used)) }} title="Unused" />
        <span class="budget-reserve" style={{ width: percent(reserve) }} title="Reserved for a system prompt" />
      </div>
      <ul class="budget-legend muted small" aria-hidden="true">
        <li><span class="swatch budget-segment-0" /> messages</li>
        <li><span class="swatch budget-free" /> unused</li>
        <li><span class="swatch budget-reserve" /> system-prompt reserve</li>
      </ul>
      {messages.length === 0 ? <p class="empty">Nothing relevant was found.</p> : (
        <ol class="context-list">
          {messages.map((message, index) => (
            <li key={message.id} class="context-item">
              <div class="context-item-head">
                <Link href={href(`/conversations/${message.conversation_id}`, { m: message.id, q: result.query })}>
                  {message.metadata.label}
                </Link>
                <span class="muted small">{message.metadata.folder} · {message.role}</span>
                <span class="score-bar" title={`Relevance ${formatScore(message.metadata.relevance_score)}`}>
                  <span class="score-bar-track" aria-hidden="true">
                    <span class="score-bar-fill" style={{ width: `${Math.round(message.metadata.relevance_score * 100)}%` }} />
                  </span>
                  <span class="score">{formatScore(message.metadata.relevance_score)}</span>
                </span>
                <span class="tokens">{formatNumber(tokens[index] ?? 0)} tokens</span>
              </div>
              <p class="context-content">{message.content.length > 600 ? `${message.content.slice(0, 600)}…` : message.content}</p>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
