import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Measurement, ScenarioReport } from './scenario.js';

/** A plain-text table of a scenario report, for the terminal. */
export function formatReport(scenario: string, report: ScenarioReport): string {
  const lines: string[] = [];
  lines.push(`== ${scenario} ==`);
  const dataset = Object.entries(report.dataset).map(([key, value]) => `${key}=${formatValue(value)}`);
  if (dataset.length) lines.push(`data: ${dataset.join(', ')}`);
  for (const step of report.seeding) {
    lines.push(`seeded ${step.count.toLocaleString('en-US')} via ${step.method}: ${(step.wall_ms / 1000).toFixed(1)}s, ` +
      `${step.rate_per_s.toFixed(0)}/s${step.note ? ` (${step.note})` : ''}`);
  }
  lines.push('');
  lines.push(table(report.measurements));
  const rowNotes = report.measurements.filter((m) => m.note);
  if (rowNotes.length) {
    lines.push('');
    for (const m of rowNotes) lines.push(`${m.group} / ${m.name}: ${m.note}`);
  }
  if (report.notes.length) {
    lines.push('');
    for (const note of report.notes) lines.push(`note: ${note}`);
  }
  return lines.join('\n');
}

function table(measurements: readonly Measurement[]): string {
  const header = ['group', 'measurement', 'conc', 'ok', 'err', 'req/s', 'p50 ms', 'p95 ms', 'p99 ms', 'mean ms', 'max ms', 'srv cpu'];
  const rows = measurements.map((m) => [
    m.group, m.name, String(m.concurrency), String(m.count), String(m.errors),
    m.throughput_per_s.toFixed(1), ms(m.p50_ms), ms(m.p95_ms), ms(m.p99_ms), ms(m.mean_ms), ms(m.max_ms),
    m.server_cpu_pct === undefined ? '' : `${m.server_cpu_pct.toFixed(0)}%`,
  ]);
  const numeric = header.map((_, i) => i >= 2);
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => (row[i] ?? '').length)));
  const render = (row: readonly string[]) => row.map((cell, i) =>
    numeric[i] ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)).join('  ').trimEnd();
  return [render(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(render)].join('\n');
}

function ms(value: number): string {
  if (!Number.isFinite(value)) return '-';
  return value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2);
}

function formatValue(value: number | string): string {
  return typeof value === 'number' ? value.toLocaleString('en-US') : value;
}

export function writeJson(file: string, value: unknown): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}
