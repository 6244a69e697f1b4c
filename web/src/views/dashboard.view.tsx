import { useEffect, useState } from 'preact/hooks';
import { api } from '../api-client.js';
import { DayChart } from '../components/charts.js';
import { formatNumber } from '../format.js';
import { useAsync, useDocumentTitle } from '../hooks.js';

const RANGES = [7, 30, 90];
const COMPONENT_NAMES: Record<string, string> = { database: 'Database', vector_store: 'Vector store', llm_bridge: 'LLM bridge' };

function uptime(seconds: number): string {
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  return days > 0 ? `${days} d ${hours} h` : hours > 0 ? `${hours} h ${minutes} min` : minutes > 0 ? `${minutes} min` : `${seconds} s`;
}

export function DashboardView() {
  useDocumentTitle('Dashboard');
  const [days, setDays] = useState(30);
  const stats = useAsync(() => api.stats(), []);
  const queue = useAsync(() => api.embeddingStatus(), []);
  const health = useAsync(() => api.health(), []);
  const activity = useAsync(() => api.activity(days), [days]);

  // The queue and health change on their own; refresh them while the dashboard is open.
  useEffect(() => {
    const timer = setInterval(() => { queue.reload(); health.reload(); stats.reload(); }, 10_000);
    return () => clearInterval(timer);
  }, []);

  const s = stats.data;
  const q = queue.data;
  const h = health.data;
  const cards: Array<[string, string]> = s ? [
    ['Conversations', formatNumber(s.total_conversations)],
    ['Messages', formatNumber(s.total_messages)],
    ['Embedded', formatNumber(s.embeddings_count)],
    ['Storage', `${s.storage_size_mb.toFixed(2)} MB`],
    ['Uptime', uptime(s.uptime_seconds)],
    ['Requests', formatNumber(s.requests_total)],
    ['Server errors', formatNumber(s.errors_total)],
    // 503s: while starting (the bridge preparing its model), or with a dependency down. Not faults.
    ['Unavailable (503)', formatNumber(s.unavailable_total ?? 0)],
  ] : [];

  return (
    <section aria-labelledby="dashboard-heading" class="dashboard">
      <div class="section-head">
        <h1 id="dashboard-heading">Dashboard</h1>
        <button type="button" onClick={() => { stats.reload(); queue.reload(); health.reload(); activity.reload(); }}>Refresh</button>
      </div>
      {stats.error ? <p class="callout callout-error" role="alert">{stats.error}</p> : null}
      <ul class="cards" aria-label="Counts">
        {cards.map(([name, value]) => (
          <li key={name} class="card panel"><span class="card-value">{value}</span><span class="card-name">{name}</span></li>
        ))}
      </ul>

      <div class="dashboard-grid">
        <section class="panel dashboard-chart" aria-labelledby="activity-heading">
          <div class="section-head">
            <h2 id="activity-heading">Messages per day</h2>
            <div class="button-row" role="group" aria-label="Range">
              {RANGES.map((range) => (
                <button key={range} type="button" aria-pressed={days === range} onClick={() => setDays(range)}>{range} days</button>
              ))}
            </div>
          </div>
          {activity.error ? <p class="callout callout-error" role="alert">{activity.error}</p> : null}
          {activity.data ? <DayChart activity={activity.data} /> : <p class="muted">Loading…</p>}
        </section>

        <section class="panel" aria-labelledby="queue-heading">
          <h2 id="queue-heading">Embedding queue</h2>
          {queue.error ? <p class="callout callout-error" role="alert">{queue.error}</p> : null}
          {q ? (
            <>
              <QueueBar done={q.done} pending={q.pending} failed={q.failed} />
              <dl class="metadata">
                <div><dt>Pending</dt><dd>{formatNumber(q.pending)}</dd></div>
                <div><dt>Done</dt><dd>{formatNumber(q.done)}</dd></div>
                <div><dt>Failed</dt><dd>{formatNumber(q.failed)}</dd></div>
                <div><dt>Indexed</dt><dd>{formatNumber(q.indexed)}</dd></div>
                <div class="wide"><dt>Model</dt><dd><code>{q.model ?? '—'}</code>{q.dimension ? `, ${q.dimension} dimensions` : ''}</dd></div>
              </dl>
              {q.model_mismatch ? (
                <p class="callout callout-error">
                  The bridge now serves <code>{q.model_mismatch.current}</code>, the vectors were made with{' '}
                  <code>{q.model_mismatch.recorded}</code>: rebuild the embeddings.
                </p>
              ) : null}
              {q.rebuild && !q.rebuild.complete ? (
                <p>Rebuild: {formatNumber(q.rebuild.done)} of {formatNumber(q.rebuild.total)}</p>
              ) : null}
            </>
          ) : null}
        </section>

        <section class="panel" aria-labelledby="health-heading">
          <h2 id="health-heading">Health {h ? <span class={`badge badge-${h.status}`}>{h.status}</span> : null}</h2>
          {health.error ? <p class="callout callout-error" role="alert">{health.error}</p> : null}
          {h ? (
            <table class="health-table">
              <thead><tr><th scope="col">Component</th><th scope="col">Status</th><th scope="col">Latency</th></tr></thead>
              <tbody>
                {Object.entries(h.checks).map(([name, check]) => (
                  <tr key={name}>
                    <th scope="row">{COMPONENT_NAMES[name] ?? name.replace(/_/g, ' ')}</th>
                    <td>
                      <span class={`dot dot-${check.status}`} aria-hidden="true" /> {check.status === 'ok' ? 'ok' : 'failing'}
                      {check.error ? <div class="muted small">{check.error}</div> : null}
                    </td>
                    <td>{check.latency_ms.toFixed(1)} ms</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
        </section>
      </div>
    </section>
  );
}

function QueueBar({ done, pending, failed }: { done: number; pending: number; failed: number }) {
  const total = Math.max(1, done + pending + failed);
  const width = (value: number) => `${(100 * value) / total}%`;
  return (
    <div class="queue-bar" role="img" aria-label={`${done} embedded, ${pending} pending, ${failed} failed`}>
      <span class="queue-done" style={{ width: width(done) }} />
      <span class="queue-pending" style={{ width: width(pending) }} />
      <span class="queue-failed" style={{ width: width(failed) }} />
    </div>
  );
}
