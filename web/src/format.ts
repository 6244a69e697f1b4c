/** Display helpers shared by the screens. */
const number = new Intl.NumberFormat('en');
export const formatNumber = (value: number): string => number.format(value);

export function formatDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toISOString().replace('T', ' ').slice(0, 16) + ' UTC';
}

export function formatRelative(iso: string, now = Date.now()): string {
  const seconds = Math.round((now - new Date(iso).getTime()) / 1000);
  if (!Number.isFinite(seconds)) return iso;
  const abs = Math.abs(seconds);
  const [value, unit] = abs < 60 ? [abs, 'second'] : abs < 3600 ? [Math.round(abs / 60), 'minute']
    : abs < 86_400 ? [Math.round(abs / 3600), 'hour'] : abs < 86_400 * 60 ? [Math.round(abs / 86_400), 'day']
    : [Math.round(abs / (86_400 * 30)), 'month'];
  const text = `${value} ${unit}${value === 1 ? '' : 's'}`;
  return seconds >= 0 ? `${text} ago` : `in ${text}`;
}

/** "1 message", "3 messages". */
export const plural = (count: number, noun: string): string => `${formatNumber(count)} ${noun}${count === 1 ? '' : 's'}`;

export const formatScore = (score: number): string => score.toFixed(3);

/** The server's estimate: one token per four characters, rounded up. */
export const estimateTokens = (text: string): number => Math.ceil([...text].length / 4);

export const splitList = (text: string): string[] =>
  text.split(',').map((part) => part.trim()).filter((part) => part.length > 0);
