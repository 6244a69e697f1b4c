const DAY_MS = 86_400_000;

/** The last `days` UTC days up to and including today's, each with its count (0 when absent). */
export function fillDays(counts: ReadonlyArray<{ date: string; messages: number }>, days: number, now: Date):
  { from: string; to: string; days: Array<{ date: string; messages: number }> } {
  const byDate = new Map(counts.map((count) => [count.date, count.messages]));
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const result: Array<{ date: string; messages: number }> = [];
  for (let index = days - 1; index >= 0; index--) {
    const date = new Date(today - index * DAY_MS).toISOString().slice(0, 10);
    result.push({ date, messages: byDate.get(date) ?? 0 });
  }
  return { from: result[0]?.date ?? '', to: result[result.length - 1]?.date ?? '', days: result };
}

/** The first instant counted for a window of `days` days ending today (UTC midnight). */
export function windowStart(days: number, now: Date): string {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return new Date(today - (days - 1) * DAY_MS).toISOString();
}
