import type { ComponentChildren, PartialAnchorHTMLAttributes } from 'preact';
import { useEffect, useState } from 'preact/hooks';

/** A tiny history router: the URL (path + query) is the state of every screen, so Back and links just work. */
export interface Location {
  path: string;
  params: URLSearchParams;
}

const current = (): Location => ({ path: window.location.pathname, params: new URLSearchParams(window.location.search) });
const listeners = new Set<() => void>();

export function navigate(href: string, options: { replace?: boolean } = {}): void {
  if (options.replace) history.replaceState(null, '', href);
  else history.pushState(null, '', href);
  for (const listener of listeners) listener();
  if (!options.replace) window.scrollTo(0, 0);
}

export function useLocation(): Location {
  const [location, setLocation] = useState(current);
  useEffect(() => {
    const update = () => setLocation(current());
    listeners.add(update);
    window.addEventListener('popstate', update);
    return () => { listeners.delete(update); window.removeEventListener('popstate', update); };
  }, []);
  return location;
}

/** Builds "path?query" leaving out empty values. */
export function href(path: string, params: Record<string, string | number | boolean | undefined | null> = {}): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') search.set(name, String(value));
  }
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

type LinkProps = Omit<PartialAnchorHTMLAttributes<HTMLAnchorElement>, 'href' | 'role'> & { href: string; children?: ComponentChildren };

/** A real link (middle-click, copy address, keyboard Enter) that navigates in place. */
export function Link({ href: target, onClick, ...rest }: LinkProps) {
  return (
    <a
      {...rest}
      href={target}
      onClick={(event) => {
        if (typeof onClick === 'function') onClick(event);
        if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        navigate(target);
      }}
    />
  );
}
