import { useState } from 'preact/hooks';
import { api, errorText } from '../api-client.js';
import type { DryRun } from '../api-types.js';
import { Dialog } from '../components/dialog.js';
import { formatDate, formatNumber, formatRelative } from '../format.js';
import { notify, useDocumentTitle } from '../hooks.js';
import { Link } from '../router.js';

/** The prune dry run as a reviewable list: archive recommendations start checked; nothing changes until "Archive selected". */
export function PruneView() {
  useDocumentTitle('Prune');
  const [days, setDays] = useState(30);
  const [threshold, setThreshold] = useState(5);
  const [plan, setPlan] = useState<DryRun | undefined>();
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);

  const run = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const next = await api.pruneDryRun(days, threshold);
      setPlan(next);
      setSelected(new Set(next.suggestions.filter((s) => s.recommendation === 'archive').map((s) => s.conversation_id)));
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setBusy(false);
    }
  };

  const archiveSelected = async () => {
    setConfirming(false);
    const ids = [...selected];
    setBusy(true);
    try {
      await api.pruneExecute(ids);
      notify(`Archived ${ids.length} conversation${ids.length === 1 ? '' : 's'}.`);
    } catch (failure) {
      notify(errorText(failure), 'error');
    } finally {
      setBusy(false);
    }
    await run();
  };

  const toggle = (id: string, on: boolean) => setSelected((previous) => {
    const next = new Set(previous);
    if (on) next.add(id); else next.delete(id);
    return next;
  });
  const all = plan ? plan.suggestions.length > 0 && plan.suggestions.every((s) => selected.has(s.conversation_id)) : false;
  const savings = plan ? plan.suggestions.filter((s) => selected.has(s.conversation_id)).reduce((sum, s) => sum + s.token_estimate, 0) : 0;

  return (
    <section aria-labelledby="prune-heading">
      <h1 id="prune-heading">Prune</h1>
      <p class="muted">Conversations nobody read or changed for a while. Review the list, then archive what you picked; archived conversations can be restored.</p>
      <form class="panel filters" onSubmit={(event) => { event.preventDefault(); void run(); }}>
        <div class="field">
          <label for="prune-days">Idle for at least (days)</label>
          <input id="prune-days" type="number" min={0} max={36500} value={days} onInput={(event) => setDays(Number(event.currentTarget.value) || 0)} />
        </div>
        <div class="field">
          <label for="prune-importance">Archive when importance ≤</label>
          <input id="prune-importance" type="number" min={0} max={10} step={0.5} value={threshold}
            onInput={(event) => setThreshold(Number(event.currentTarget.value) || 0)} />
        </div>
        <div class="field field-end">
          <button type="submit" class="primary" disabled={busy}>{busy ? 'Working…' : 'Run dry run'}</button>
        </div>
      </form>
      {error ? <p class="callout callout-error" role="alert">{error}</p> : null}
      {plan ? (
        <section class="panel" aria-labelledby="plan-heading">
          <div class="section-head">
            <h2 id="plan-heading">Suggestions</h2>
            <span class="muted">
              {formatNumber(plan.total)} idle since {formatDate(plan.idle_since)}, {formatNumber(plan.archive_count)} recommended for archiving
              {plan.total > plan.suggestions.length ? ` (showing ${plan.suggestions.length})` : ''}
            </span>
          </div>
          {plan.suggestions.length === 0 ? <p class="empty">Nothing is idle that long.</p> : (
            <>
              <div class="table-wrap">
                <table class="prune-table">
                  <thead>
                    <tr>
                      <th scope="col">
                        <input type="checkbox" aria-label="Select all" checked={all}
                          onChange={(event) => setSelected(event.currentTarget.checked ? new Set(plan.suggestions.map((s) => s.conversation_id)) : new Set())} />
                      </th>
                      <th scope="col">Conversation</th>
                      <th scope="col">Last used</th>
                      <th scope="col">Importance</th>
                      <th scope="col">Messages</th>
                      <th scope="col">Tokens</th>
                      <th scope="col">Recommendation</th>
                    </tr>
                  </thead>
                  <tbody>
                    {plan.suggestions.map((s) => (
                      <tr key={s.conversation_id} class={selected.has(s.conversation_id) ? 'selected' : undefined}>
                        <td>
                          <input type="checkbox" id={`prune-${s.conversation_id}`} checked={selected.has(s.conversation_id)}
                            aria-label={`Archive ${s.conversation_label}`} onChange={(event) => toggle(s.conversation_id, event.currentTarget.checked)} />
                        </td>
                        <td>
                          <Link href={`/conversations/${s.conversation_id}`}>{s.conversation_label}</Link>
                          <div class="muted small preview">{s.preview}</div>
                        </td>
                        <td><time dateTime={s.last_accessed} title={formatDate(s.last_accessed)}>{formatRelative(s.last_accessed)}</time></td>
                        <td>{s.importance_score}</td>
                        <td>{formatNumber(s.message_count)}</td>
                        <td>{formatNumber(s.token_estimate)}</td>
                        <td><span class={`badge badge-${s.recommendation}`}>{s.recommendation}</span><div class="muted small">{s.reason}</div></td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <div class="button-row">
                <button type="button" class="primary" disabled={selected.size === 0 || busy} onClick={() => setConfirming(true)}>
                  Archive selected ({selected.size})
                </button>
                <span class="muted">Frees about {formatNumber(savings)} tokens from active memory.</span>
              </div>
            </>
          )}
        </section>
      ) : null}
      <Dialog open={confirming} title="Archive the selected conversations?" onClose={() => setConfirming(false)}>
        <p>{selected.size} conversation{selected.size === 1 ? '' : 's'} will be archived. You can unarchive them later.</p>
        <div class="button-row end">
          <button type="button" autoFocus onClick={() => setConfirming(false)}>Cancel</button>
          <button type="button" class="primary" onClick={archiveSelected}>Archive {selected.size}</button>
        </div>
      </Dialog>
    </section>
  );
}
