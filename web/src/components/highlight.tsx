/** Words of a query worth marking: no operators, no punctuation, at least two characters. */
export function queryTerms(query: string): string[] {
  const words = query.toLowerCase().match(/[\p{L}\p{N}_]+\*?/gu) ?? [];
  const operators = new Set(['and', 'or', 'not', 'near']);
  return [...new Set(words.map((word) => word.replace(/\*$/, '')).filter((word) => word.length > 1 && !operators.has(word)))];
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The text with every query term (and words starting with it, as stemming would match) wrapped in <mark>. */
export function Highlight({ text, terms }: { text: string; terms: readonly string[] }) {
  if (terms.length === 0) return <>{text}</>;
  const pattern = new RegExp(`(${terms.map(escapeRegExp).join('|')})[\\p{L}\\p{N}_]*`, 'giu');
  const parts: Array<string | { mark: string }> = [];
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    const start = match.index ?? 0;
    const before = start > 0 ? text[start - 1] ?? '' : '';
    if (/[\p{L}\p{N}_]/u.test(before)) continue; // only at word starts
    if (start > last) parts.push(text.slice(last, start));
    parts.push({ mark: match[0] });
    last = start + match[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return <>{parts.map((part) => (typeof part === 'string' ? part : <mark>{part.mark}</mark>))}</>;
}

/** A window of a long text around its first match, so results stay short. */
export function excerpt(text: string, terms: readonly string[], size = 280): string {
  if (text.length <= size) return text;
  const lower = text.toLowerCase();
  const hit = terms.map((term) => lower.indexOf(term)).filter((index) => index >= 0).sort((a, b) => a - b)[0] ?? 0;
  const start = Math.max(0, Math.min(hit - Math.floor(size / 3), text.length - size));
  return `${start > 0 ? '…' : ''}${text.slice(start, start + size)}${start + size < text.length ? '…' : ''}`;
}
