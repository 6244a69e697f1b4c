import { useEffect, useRef, useState } from 'preact/hooks';
import type { Activity } from '../api-types.js';
import { formatNumber } from '../format.js';

/** Width of an element, kept current as it resizes (the chart is drawn at 1:1 so its text stays legible). */
function useWidth(fallback: number): [{ current: HTMLElement | null }, number] {
  const ref = useRef<HTMLElement | null>(null);
  const [width, setWidth] = useState(fallback);
  useEffect(() => {
    const element = ref.current;
    if (!element) return undefined;
    const observer = new ResizeObserver(([entry]) => {
      const next = Math.round(entry?.contentRect.width ?? 0);
      if (next > 0) setWidth(next);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}

const niceTicks = (max: number): number[] => {
  if (max <= 4) return Array.from({ length: max + 1 }, (_, index) => index);
  const step = Math.ceil(max / 4);
  return [0, step, step * 2, step * 3, step * 4].filter((tick, index) => index === 0 || tick - step < max);
};

/** Messages per day as hand-rolled SVG bars, with a table alternative for screen readers. */
export function DayChart({ activity }: { activity: Activity }) {
  const [ref, width] = useWidth(640);
  const days = activity.days;
  const ticks = niceTicks(Math.max(1, ...days.map((day) => day.messages)));
  const max = ticks[ticks.length - 1] ?? 1;
  const height = 190;
  const top = 10;
  const bottom = 24;
  const left = 34;
  const right = 8;
  const plotWidth = Math.max(1, width - left - right);
  const barSpace = plotWidth / Math.max(1, days.length);
  const y = (value: number) => height - bottom - ((height - top - bottom) * value) / max;
  const labelEvery = Math.max(1, Math.ceil(days.length / Math.max(2, Math.floor(plotWidth / 56))));
  const total = days.reduce((sum, day) => sum + day.messages, 0);
  return (
    <figure class="chart" ref={ref as never}>
      <svg width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img"
        aria-label={`Messages per day, ${days.length} days, ${total} in total`}>
        {ticks.map((tick) => (
          <g key={tick}>
            <line x1={left} x2={width - right} y1={y(tick)} y2={y(tick)} class="chart-grid" />
            <text x={left - 6} y={y(tick) + 4} class="chart-axis" text-anchor="end">{tick}</text>
          </g>
        ))}
        {days.map((day, index) => (
          <rect key={day.date} class="chart-bar" x={left + index * barSpace + barSpace * 0.15} width={Math.max(1, barSpace * 0.7)}
            y={y(day.messages)} height={Math.max(0, y(0) - y(day.messages))}>
            <title>{`${day.date}: ${day.messages} messages`}</title>
          </rect>
        ))}
        {days.map((day, index) => {
          // Labels count back from today, so the newest day is always labelled.
          if ((days.length - 1 - index) % labelEvery !== 0) return null;
          const x = left + index * barSpace + barSpace / 2;
          const anchor = index === days.length - 1 ? 'end' : index === 0 ? 'start' : 'middle';
          return (
            <text key={`label-${day.date}`} x={anchor === 'end' ? Math.min(x + barSpace / 2, width - right) : anchor === 'start' ? left : x}
              y={height - 6} class="chart-axis" text-anchor={anchor}>{day.date.slice(5)}</text>
          );
        })}
      </svg>
      <figcaption>{formatNumber(total)} messages from {activity.from} to {activity.to} (UTC days)</figcaption>
      <details class="chart-table">
        <summary>Show as a table</summary>
        <table>
          <thead><tr><th scope="col">Day</th><th scope="col">Messages</th></tr></thead>
          <tbody>{days.map((day) => <tr key={day.date}><td>{day.date}</td><td>{day.messages}</td></tr>)}</tbody>
        </table>
      </details>
    </figure>
  );
}
