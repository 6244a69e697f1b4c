import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { api, errorText } from './api-client.js';

export interface AsyncState<T> {
  data: T | undefined;
  error: string | undefined;
  loading: boolean;
  reload: () => void;
}

/** Loads when the dependencies change; a slower earlier answer never overwrites a newer one. */
export function useAsync<T>(load: () => Promise<T>, deps: readonly unknown[]): AsyncState<T> {
  const [state, setState] = useState<{ data?: T; error?: string; loading: boolean }>({ loading: true });
  const [tick, setTick] = useState(0);
  const generation = useRef(0);
  useEffect(() => {
    const mine = ++generation.current;
    setState((previous) => ({ ...previous, loading: true, error: undefined }));
    load().then(
      (data) => { if (generation.current === mine) setState({ data, loading: false }); },
      (error: unknown) => { if (generation.current === mine) setState((previous) => ({ ...previous, error: errorText(error), loading: false })); },
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((value) => value + 1), []);
  return { data: state.data, error: state.error, loading: state.loading, reload };
}

export type NoticeKind = 'ok' | 'error';
export interface Notice { id: number; text: string; kind: NoticeKind }

const noticeListeners = new Set<(notice: Notice) => void>();
let noticeId = 0;
/** Announces the outcome of an action in the page's live region. */
export function notify(text: string, kind: NoticeKind = 'ok'): void {
  const notice = { id: ++noticeId, text, kind };
  for (const listener of noticeListeners) listener(notice);
}

export function useNotices(): [Notice[], (id: number) => void] {
  const [notices, setNotices] = useState<Notice[]>([]);
  useEffect(() => {
    const listener = (notice: Notice) => {
      setNotices((previous) => [...previous.slice(-3), notice]);
      setTimeout(() => setNotices((previous) => previous.filter((item) => item.id !== notice.id)), notice.kind === 'error' ? 10_000 : 5_000);
    };
    noticeListeners.add(listener);
    return () => { noticeListeners.delete(listener); };
  }, []);
  return [notices, (id) => setNotices((previous) => previous.filter((item) => item.id !== id))];
}

/** Runs an action, reports success or failure, and tells whether it worked. */
export async function runAction(action: () => Promise<unknown>, success: string): Promise<boolean> {
  try {
    await action();
    notify(success);
    return true;
  } catch (error) {
    notify(errorText(error), 'error');
    return false;
  }
}

export function useDocumentTitle(title: string): void {
  useEffect(() => { document.title = `${title} · memsvc`; }, [title]);
}

/** Whether the signed-in key may change conversations in `folder` (write grant on it or above); true while unknown. */
export function useCanWrite(folder: string | undefined): boolean {
  const me = useAsync(() => api.me(), []);
  if (!me.data || folder === undefined) return true;
  if (me.data.admin) return true;
  return me.data.grants.some((grant) => grant.access === 'write'
    && (grant.folder === '/' || folder === grant.folder || folder.startsWith(`${grant.folder}/`)));
}
