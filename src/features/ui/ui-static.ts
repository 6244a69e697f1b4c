import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** One file of the built UI, held in memory with the headers it is served with. */
export interface StaticFile {
  body: Buffer;
  contentType: string;
  etag: string;
  cacheControl: string;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

export const contentTypeOf = (path: string): string => CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';

/** Vite puts content-hashed files under /assets/: they never change, so browsers may keep them for a year. */
export const cacheControlOf = (urlPath: string): string =>
  urlPath.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache';

const MAX_FILES = 2000;
const MAX_BYTES = 64 * 1024 * 1024;

/**
 * Reads the built site into memory, keyed by URL path ("/index.html", "/assets/index-1a2b.js").
 * Serving is then a map lookup: no request path ever reaches the file system, so there is
 * nothing to traverse. Only regular files are read; symbolic links are skipped.
 */
export function loadStaticSite(root: string): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  let bytes = 0;
  const walk = (directory: string, urlPrefix: string) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const path = join(directory, entry.name);
      const stat = lstatSync(path);
      if (stat.isDirectory()) walk(path, `${urlPrefix}${entry.name}/`);
      else if (stat.isFile()) {
        if (files.size >= MAX_FILES || bytes + stat.size > MAX_BYTES) throw new Error(`web UI in ${root} is too large to serve`);
        const body = readFileSync(path);
        bytes += body.length;
        const urlPath = `${urlPrefix}${entry.name}`;
        files.set(urlPath, {
          body,
          contentType: contentTypeOf(entry.name),
          etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
          cacheControl: cacheControlOf(urlPath),
        });
      }
    }
  };
  walk(root, '/');
  return files;
}

/** Where `npm run build:web` puts the UI: web/dist of the package, found from this file (src/ or dist/). */
export function findWebDist(start = dirname(fileURLToPath(import.meta.url))): string | null {
  let directory = resolve(start);
  for (;;) {
    const candidate = join(directory, 'web', 'dist');
    if (existsSync(join(candidate, 'index.html'))) return candidate;
    if (existsSync(join(directory, 'package.json'))) return null;
    const parent = dirname(directory);
    if (parent === directory) return null;
    directory = parent;
  }
}

/**
 * The URL path of a request as a key into the site, or null when it is not a plain path
 * (bad percent-encoding, NUL, backslashes or dot segments are never files of the site).
 */
export function sitePath(url: string): string | null {
  const raw = url.split('?')[0] ?? '/';
  let path: string;
  try { path = decodeURIComponent(raw); } catch { return null; }
  if (!path.startsWith('/') || path.includes('\0') || path.includes('\\')) return null;
  if (path.split('/').some((segment) => segment === '.' || segment === '..')) return null;
  return path;
}

/** A request for a file (it has an extension, or is under /assets/) gets a 404 when missing, not the app. */
export const looksLikeFile = (path: string): boolean => path.startsWith('/assets/') || /\.[a-z0-9]{1,12}$/i.test(path);
