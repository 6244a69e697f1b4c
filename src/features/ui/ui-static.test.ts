import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cacheControlOf, contentTypeOf, loadStaticSite, looksLikeFile, sitePath } from './ui-static.js';
import { fillDays, windowStart } from './message-activity.js';

test('content types and cache policy', () => {
  assert.equal(contentTypeOf('index.html'), 'text/html; charset=utf-8');
  assert.equal(contentTypeOf('a.JS'), 'text/javascript; charset=utf-8');
  assert.equal(contentTypeOf('x.css'), 'text/css; charset=utf-8');
  assert.equal(contentTypeOf('f.svg'), 'image/svg+xml');
  assert.equal(contentTypeOf('blob'), 'application/octet-stream');
  assert.equal(cacheControlOf('/assets/index-abc.js'), 'public, max-age=31536000, immutable');
  assert.equal(cacheControlOf('/index.html'), 'no-cache');
});

test('sitePath refuses anything that is not a plain path', () => {
  assert.equal(sitePath('/assets/a.js?v=1'), '/assets/a.js');
  assert.equal(sitePath('/conversations/%41'), '/conversations/A');
  for (const bad of ['/../etc/passwd', '/assets/%2e%2e/x', '/a/./b', '/%00', '/a%5cb', '/%E0%A4%A', 'relative']) {
    assert.equal(sitePath(bad), null, bad);
  }
  assert.ok(looksLikeFile('/assets/missing'));
  assert.ok(looksLikeFile('/robots.txt'));
  assert.ok(!looksLikeFile('/conversations/123'));
});

test('loadStaticSite reads regular files only, keyed by URL path', () => {
  const root = mkdtempSync(join(tmpdir(), 'memsvc-site-'));
  const outside = mkdtempSync(join(tmpdir(), 'memsvc-outside-'));
  try {
    mkdirSync(join(root, 'assets'));
    writeFileSync(join(root, 'index.html'), '<!doctype html>');
    writeFileSync(join(root, 'assets', 'app-1.js'), 'x');
    writeFileSync(join(root, '.hidden'), 'secret');
    writeFileSync(join(outside, 'secret.txt'), 'secret');
    symlinkSync(join(outside, 'secret.txt'), join(root, 'link.txt'));
    const site = loadStaticSite(root);
    assert.deepEqual([...site.keys()].sort(), ['/assets/app-1.js', '/index.html']);
    const script = site.get('/assets/app-1.js')!;
    assert.equal(script.cacheControl, 'public, max-age=31536000, immutable');
    assert.match(script.etag, /^"[\w-]+"$/);
  } finally {
    rmSync(root, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  }
});

test('fillDays covers every day of the window, today last, zeros where nothing was said', () => {
  const now = new Date('2025-03-02T15:00:00Z');
  assert.equal(windowStart(3, now), '2025-02-28T00:00:00.000Z');
  const filled = fillDays([{ date: '2025-03-01', messages: 4 }], 3, now);
  assert.deepEqual(filled, {
    from: '2025-02-28', to: '2025-03-02',
    days: [{ date: '2025-02-28', messages: 0 }, { date: '2025-03-01', messages: 4 }, { date: '2025-03-02', messages: 0 }],
  });
});
