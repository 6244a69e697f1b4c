import { formatNumber } from '../format.js';

interface PagerProps {
  page: number;
  pageSize: number;
  total: number;
  onPage: (page: number) => void;
  label: string;
}

/** Server-side paging: only the current page is ever loaded. */
export function Pager({ page, pageSize, total, onPage, label }: PagerProps) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const first = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const last = Math.min(total, page * pageSize);
  return (
    <nav class="pager" aria-label={label}>
      <button type="button" onClick={() => onPage(1)} disabled={page <= 1} aria-label="First page">«</button>
      <button type="button" onClick={() => onPage(page - 1)} disabled={page <= 1}>‹ Previous</button>
      <span class="pager-status" aria-live="polite">
        {formatNumber(first)}–{formatNumber(last)} of {formatNumber(total)} · page {formatNumber(page)} of {formatNumber(pages)}
      </span>
      <button type="button" onClick={() => onPage(page + 1)} disabled={page >= pages}>Next ›</button>
      <button type="button" onClick={() => onPage(pages)} disabled={page >= pages} aria-label="Last page">»</button>
    </nav>
  );
}
