import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { FakeBridge } from '../helpers/fake-bridge.js';
import type { Clock } from '../../src/ports/clock.js';
import { ensureWebBuilt, REPO_ROOT } from './web-build.js';
import { removeDir, type RunningService, startService, TEST_API_KEY } from '../helpers/service-harness.js';
import { waitFor } from '../helpers/wait-for.js';

/**
 * The memory browser end to end: a real controller (FakeBridge behind it) serving the built UI,
 * driven by headless Debian Chromium through playwright-core. Screenshots of the main screens go
 * to test-artifacts/ui/. CI installs chromium (.ci/run); without it the suite is skipped, saying so.
 */
const CHROMIUM = process.env.MEMSVC_CHROMIUM ?? '/usr/bin/chromium';
const skip = existsSync(CHROMIUM) ? false : `chromium not found at ${CHROMIUM}: install it (apt-get install -y chromium) to run the UI tests`;
const ARTIFACTS = join(REPO_ROOT, 'test-artifacts', 'ui');
const DAY = 86_400_000;

class MovableClock implements Clock {
  constructor(private offsetMs = 0) {}
  now(): Date { return new Date(Date.now() + this.offsetMs); }
  set(offsetMs: number): void { this.offsetMs = offsetMs; }
}

/**
 * This program is type-checked without the DOM library: expressions run in the page are strings
 * (evaluated over CDP, which the page's CSP allows); predicates run in the page reach the document
 * as `(globalThis as any).document`, since waitForFunction with a string would need 'unsafe-eval'.
 */
const inPage = <T = unknown>(page: Page, expression: string) => page.evaluate(expression) as Promise<T>;

const daysAgo = (days: number, hour = 10) => {
  const date = new Date(Date.now() - days * DAY);
  date.setUTCHours(hour, 0, 0, 0);
  return date.toISOString();
};

describe('memory browser in a real browser', { skip }, () => {
  let bridge: FakeBridge;
  let server: RunningService;
  let context: BrowserContext;
  let page: Page;
  let userDataDir: string;
  const clock = new MovableClock();
  const requested: string[] = [];
  const consoleErrors: string[] = [];
  const ids: Record<string, string> = {};

  const create = async (key: string, body: Record<string, unknown>) => {
    const { status, body: created } = await server.api('POST', '/api/v1/conversations', body);
    assert.equal(status, 201, JSON.stringify(created));
    ids[key] = created.id as string;
  };
  const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });

  before(async () => {
    ensureWebBuilt();
    mkdirSync(ARTIFACTS, { recursive: true });
    bridge = await new FakeBridge().start();
    server = await startService({ bridge: { url: bridge.url }, clock });

    // Old, idle conversations (made 60 days ago, never read since): the prune candidates.
    clock.set(-60 * DAY);
    await create('oldNotes', { label: 'old meeting notes', folder: '/personal/archive', importance: 2, messages: [
      { role: 'user', content: 'Notes from the quarterly planning meeting about office plants.', timestamp: daysAgo(60) },
    ] });
    await create('oldRecipe', { label: 'sourdough recipe', folder: '/personal', importance: 3, messages: [
      { role: 'user', content: 'Feed the sourdough starter twice a day with rye flour.', timestamp: daysAgo(59) },
    ] });
    clock.set(0);
    await create('migration', { label: 'db migration', folder: '/work/backend', importance: 7, messages: [
      { role: 'user', name: 'Dana', content: 'The database migration deadlocked on the orders table last night.', timestamp: daysAgo(6) },
      { role: 'assistant', content: 'Run the migration in smaller batches and take the lock on orders first to avoid the deadlock.', timestamp: daysAgo(6, 11) },
      { role: 'user', content: 'Batching fixed it; the migration finished in four minutes.', timestamp: daysAgo(5) },
    ] });
    await create('cache', { label: 'redis cache eviction', folder: '/work/backend', messages: [
      { role: 'user', content: 'Our redis cache evicts hot keys under memory pressure.', timestamp: daysAgo(4) },
      { role: 'assistant', content: 'Switch the eviction policy to allkeys-lfu and raise maxmemory.', timestamp: daysAgo(4, 12) },
    ] });
    await create('css', { label: 'css grid layout', folder: '/work/frontend', messages: [
      { role: 'user', content: 'How do I make the sidebar collapse on narrow screens with CSS grid?', timestamp: daysAgo(3) },
      { role: 'assistant', content: 'Use a media query that switches grid-template-columns to a single column.', timestamp: daysAgo(3, 13) },
    ] });
    await create('trip', { label: 'trip to Lisbon', folder: '/personal/travel', messages: [
      { role: 'user', content: 'Plan three days in Lisbon with a day trip to Sintra.', timestamp: daysAgo(2) },
    ] });
    await create('scratch', { label: 'scratch pad', folder: '/work', messages: [
      { role: 'user', content: 'Throwaway thoughts about nothing in particular.', timestamp: daysAgo(1) },
    ] });
    for (let index = 0; index < 30; index++) {
      await create(`bulk${index}`, { label: `standup ${String(index + 1).padStart(2, '0')}`, folder: '/work/meetings', messages: [
        { role: 'user', content: `Standup ${index + 1}: shipped the ticket, reviewing pull requests.`, timestamp: daysAgo(index % 20, 9) },
      ] });
    }
    await waitFor(() => server.api('GET', '/api/v1/embeddings/status'), { what: 'the seeded messages embedded and searchable', until: (r) => r.body.searchable && r.body.done > 0 });

    userDataDir = mkdtempSync(join(tmpdir(), 'memsvc-chromium-'));
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      viewport: { width: 1280, height: 860 },
    });
    // Every request the page makes is recorded; anything not for the controller is refused outright.
    await context.route('**/*', (route) => {
      const url = route.request().url();
      requested.push(url);
      return new URL(url).hostname === '127.0.0.1' || url.startsWith('data:') ? route.continue() : route.abort();
    });
    page = context.pages()[0] ?? await context.newPage();
    page.on('console', (message) => { if (message.type() === 'error') consoleErrors.push(message.text()); });
    page.on('pageerror', (error) => consoleErrors.push(String(error)));
    page.setDefaultTimeout(10_000);
  });

  after(async () => {
    await context?.close();
    await server?.stop();
    await bridge?.stop();
    if (server) removeDir(server.dataDir);
    if (userDataDir) removeDir(userDataDir);
  });

  it('signs in with the API key (a wrong key is refused)', async () => {
    await page.goto(`${server.baseUrl}/`);
    await page.getByRole('heading', { name: /memory browser/ }).waitFor();
    await shot('sign-in');
    await page.getByLabel('API key').fill('not-the-key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'That key was not accepted' }).waitFor();
    // Keyboard only: the field keeps focus, Enter submits.
    await page.getByLabel('API key').fill(TEST_API_KEY);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Conversations', level: 1 }).waitFor();
    assert.equal(await inPage(page, `sessionStorage.getItem('memsvc.apiKey')`), TEST_API_KEY);
  });

  it('browses the folder tree and the paged, sorted, filtered list', async () => {
    const list = page.getByRole('list', { name: 'Conversations' });
    await list.getByRole('listitem').first().waitFor();
    assert.equal(await list.getByRole('listitem').count(), 25, 'first page of 25');
    await page.getByRole('navigation', { name: 'Conversation pages' }).getByText('1–25 of 37').waitFor();

    const tree = page.getByRole('navigation', { name: 'Folders' });
    await tree.getByRole('button', { name: 'Expand /work' }).click();
    await tree.getByRole('button', { name: /^backend/ }).click();
    await page.getByRole('heading', { name: 'Conversations in /work/backend' }).waitFor();
    await page.waitForFunction(() => (globalThis as any).document.querySelectorAll('.conversation-row').length === 2);
    assert.match(page.url(), /folder=%2Fwork%2Fbackend/);
    assert.match(await tree.getByRole('button', { name: /^work/ }).innerText(), /34/);

    await page.getByLabel('Sort by').selectOption('label');
    await page.getByLabel('Order').selectOption('asc');
    await page.waitForFunction(() => (globalThis as any).document.querySelector('.conversation-row .conversation-label')?.textContent === 'db migration');
    await shot('conversations');

    // Server-side paging: page 2 of the meetings folder.
    await page.goto(`${server.baseUrl}/?folder=%2Fwork%2Fmeetings&sort=label&order=asc`);
    await page.getByRole('button', { name: 'Next ›' }).click();
    await page.waitForFunction(() => (globalThis as any).document.querySelector('.conversation-row .conversation-label')?.textContent === 'standup 26');
    assert.match(page.url(), /page=2/);
  });

  it('opens a conversation with its messages, metadata and embedding state; pins and archives it', async () => {
    await page.goto(`${server.baseUrl}/conversations/${ids.migration}`);
    await page.getByRole('heading', { name: /db migration/, level: 1 }).waitFor();
    // The messages load after the heading (and their embedding state may still be pending): wait for all three.
    await page.waitForFunction(() => (globalThis as any).document.querySelectorAll('.message').length === 3
      && (globalThis as any).document.querySelectorAll('.badge-embed-done').length === 3);
    assert.equal(await page.locator('.message').count(), 3);
    // A message with an author's name shows it beside the role; the others show none.
    assert.deepEqual(await page.locator('.message .author').allTextContents(), ['Dana']);
    assert.equal(await page.locator('.message').first().locator('.author').textContent(), 'Dana');
    await shot('conversation');

    await page.getByRole('button', { name: 'Pin', exact: true }).click();
    await page.locator('h1 .badge-pinned').waitFor();
    assert.equal((await server.api('GET', `/api/v1/conversations/${ids.migration}`)).body.pinned, true);

    await page.getByRole('button', { name: 'Archive', exact: true }).click();
    await page.locator('h1 .badge-archived').waitFor();
    assert.equal((await server.api('GET', `/api/v1/conversations/${ids.migration}`)).body.status, 'archived');
    await page.getByRole('button', { name: 'Unarchive' }).click();
    await page.getByRole('button', { name: 'Archive', exact: true }).waitFor();
    assert.equal((await server.api('GET', `/api/v1/conversations/${ids.migration}`)).body.status, 'active');

    await page.getByLabel('Importance (1–10; 10 pins)').selectOption('8');
    await page.getByRole('button', { name: 'Set importance' }).click();
    await page.getByRole('button', { name: 'Pin', exact: true }).waitFor();
    assert.equal((await server.api('GET', `/api/v1/conversations/${ids.migration}`)).body.importance_score, 8);

    await page.getByLabel('Message', { exact: true }).fill('Follow-up: add an index on orders.created_at.');
    await page.getByRole('button', { name: 'Append message' }).click();
    await page.locator('.message').nth(3).waitFor();
    assert.equal((await server.api('GET', `/api/v1/conversations/${ids.migration}`)).body.message_count, 4);

    await page.getByRole('button', { name: 'Daily' }).click();
    await page.locator('.summary').waitFor();
    await page.getByRole('button', { name: 'Suggest labels' }).click();
    await page.locator('.suggestions li, #labels-heading ~ p').first().waitFor();
  });

  it('relabels and moves a conversation', async () => {
    await page.goto(`${server.baseUrl}/conversations/${ids.cache}`);
    await page.getByLabel('Label', { exact: true }).fill('redis eviction policy');
    await page.getByRole('button', { name: 'Relabel' }).click();
    await page.getByRole('heading', { name: /redis eviction policy/, level: 1 }).waitFor();
    await page.getByLabel('Folder', { exact: true }).fill('/work/infra');
    await page.getByRole('button', { name: 'Move' }).click();
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByText('/work/infra').waitFor();
    const stored = (await server.api('GET', `/api/v1/conversations/${ids.cache}`)).body;
    assert.deepEqual([stored.label, stored.folder], ['redis eviction policy', '/work/infra']);
  });

  it('searches in semantic, hybrid and full-text modes and links to the highlighted message', async () => {
    await page.getByRole('link', { name: 'Search' }).click();
    const box = page.getByRole('searchbox', { name: 'Search for' });
    await box.fill('migration deadlock');
    await page.getByRole('radio', { name: /Semantic/ }).check();
    await box.press('Enter');
    await page.locator('.result').first().waitFor();
    assert.match(await page.locator('.result').first().innerText(), /db migration/);
    await page.getByText(/matches · semantic/).waitFor();

    await page.getByRole('radio', { name: /Hybrid/ }).check();
    await page.getByText('Filters', { exact: true }).click();
    await page.getByLabel('Folder', { exact: true }).fill('/work/backend');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByText(/matches · hybrid/).waitFor();
    const folders = await page.locator('.result .result-head .muted').allInnerTexts();
    assert.ok(folders.length > 0 && folders.every((folder) => folder === '/work/backend'), folders.join());
    assert.ok(await page.locator('.result mark').count() > 0, 'terms are highlighted in results');
    await shot('search');

    await page.getByRole('radio', { name: /Full text/ }).check();
    await page.getByLabel('Folder', { exact: true }).fill('');
    await box.fill('"eviction policy"');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByText(/matches · full text/).waitFor();
    await page.locator('.result-link').first().click();
    const target = page.locator('.message-target');
    await target.waitFor();
    assert.match(await target.innerText(), /eviction policy/);
    assert.deepEqual(await target.locator('mark').allInnerTexts(), ['eviction', 'policy']);
    await shot('search-target');
  });

  it('deletes a conversation after confirmation; Escape cancels the dialog', async () => {
    await page.goto(`${server.baseUrl}/conversations/${ids.scratch}`);
    await page.getByRole('button', { name: 'Delete…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this conversation?' });
    await dialog.waitFor();
    await shot('delete-dialog');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    assert.equal(await inPage(page, 'document.activeElement?.textContent'), 'Delete…', 'focus returns to the opener');
    assert.equal((await server.api('GET', `/api/v1/conversations/${ids.scratch}`)).status, 200);

    await page.keyboard.press('Enter');
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Delete permanently' }).click();
    await page.getByRole('heading', { name: 'Conversations', level: 1 }).waitFor();
    await page.getByText('Deleted “scratch pad”.').waitFor();
    assert.equal((await server.api('GET', `/api/v1/conversations/${ids.scratch}`)).status, 404);
  });

  it('assembles context in the playground with scores and budget use', async () => {
    await page.getByRole('link', { name: 'Context' }).click();
    await page.getByLabel('Query').fill('how was the migration deadlock fixed?');
    await page.getByLabel('Budget (tokens)').fill('300');
    await page.getByLabel('Preferred labels').fill('db migration');
    await page.getByLabel('Excluded folders').fill('/personal');
    await page.getByRole('button', { name: 'Assemble context' }).click();
    await page.getByRole('heading', { name: 'Assembled context' }).waitFor();
    const items = page.locator('.context-item');
    assert.ok(await items.count() > 0);
    assert.match(await items.first().innerText(), /db migration/);
    assert.equal(await page.locator('.context-item', { hasText: '/personal' }).count(), 0, 'excluded folder left out');
    assert.ok(await page.locator('.budget-segment').count() > 0);
    const summary = await page.locator('.budget-bar').getAttribute('aria-label');
    const [used, available] = (summary?.match(/\d+/g) ?? []).map(Number);
    assert.ok(used! > 0 && used! <= available! && available === 255, summary ?? '');
    await shot('context');
  });

  it('reviews the prune dry run and archives only the selected conversations', async () => {
    await page.getByRole('link', { name: 'Prune' }).click();
    await page.getByRole('button', { name: 'Run dry run' }).click();
    const table = page.locator('.prune-table');
    await table.waitFor();
    await page.getByRole('checkbox', { name: 'Archive old meeting notes' }).waitFor();
    assert.equal(await page.getByRole('checkbox', { name: 'Archive old meeting notes' }).isChecked(), true);
    await page.getByRole('checkbox', { name: 'Archive sourdough recipe' }).uncheck();
    await shot('prune');
    await page.getByRole('button', { name: 'Archive selected (1)' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Archive 1' }).click();
    await page.getByText('Archived 1 conversation.').waitFor();
    assert.equal((await server.api('GET', `/api/v1/conversations/${ids.oldNotes}`)).body.status, 'archived');
    assert.equal((await server.api('GET', `/api/v1/conversations/${ids.oldRecipe}`)).body.status, 'active');
  });

  it('shows the dashboard: counts, messages per day, embedding queue, health', async () => {
    await page.getByRole('link', { name: 'Dashboard' }).click();
    await page.locator('.card-value').first().waitFor();
    await page.locator('.chart-bar').first().waitFor({ state: 'attached' });
    assert.equal(await page.locator('.chart-bar').count(), 30);
    await page.locator('.health-table').waitFor();
    for (const component of ['database', 'vector store', 'llm bridge']) {
      await page.locator('.health-table th', { hasText: component }).waitFor();
    }
    await page.getByRole('heading', { name: /Health/ }).getByText('healthy').waitFor();
    assert.match(await page.locator('.cards').innerText(), /38\s+Conversations|37\s+Conversations|36\s+Conversations/);
    await shot('dashboard');
  });

  it('fits a narrow screen without sideways scrolling', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    for (const [path, name] of [['/', 'narrow-conversations'], [`/conversations/${ids.migration}`, 'narrow-conversation'], ['/dashboard', 'narrow-dashboard']] as const) {
      await page.goto(`${server.baseUrl}${path}`);
      await page.locator('main h1').first().waitFor();
      await page.waitForLoadState('networkidle');
      const overflow = await inPage<number>(page, 'document.documentElement.scrollWidth - window.innerWidth');
      assert.ok(overflow <= 1, `${path} overflows by ${overflow}px`);
      await shot(name);
    }
    await page.setViewportSize({ width: 1280, height: 860 });
  });

  it('signed in with a scoped key, shows only its folders and hides what the key cannot do', async () => {
    const created = await server.api('POST', '/api/v1/keys', { name: 'ui-reader', grants: [{ folder: '/work/backend', access: 'read' }] });
    assert.equal(created.status, 201, created.text);
    await inPage(page, `sessionStorage.setItem('memsvc.apiKey', ${JSON.stringify(created.body.key)})`);
    await page.goto(`${server.baseUrl}/`);
    await page.getByRole('heading', { name: 'Conversations', level: 1 }).waitFor();
    await page.waitForFunction(() => (globalThis as any).document.querySelectorAll('.conversation-row').length === 1);
    assert.deepEqual(await page.locator('.conversation-row .conversation-label').allInnerTexts(), ['db migration'],
      'only /work/backend (the cache conversation moved to /work/infra)');
    assert.equal(await page.getByRole('navigation', { name: 'Folders' }).getByText(/personal/).count(), 0, 'no other folder in the tree');

    await page.goto(`${server.baseUrl}/conversations/${ids.migration}`);
    await page.getByRole('heading', { name: /db migration/, level: 1 }).waitFor();
    await page.getByText('This key may read this folder, not change it.').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Append message' }).count(), 0);
    assert.equal(await page.getByRole('button', { name: 'Archive', exact: true }).count(), 0);
    await page.goto(`${server.baseUrl}/conversations/${ids.oldRecipe}`);
    await page.getByRole('alert').waitFor();
    await shot('scoped-key');
    await inPage(page, `sessionStorage.setItem('memsvc.apiKey', ${JSON.stringify(TEST_API_KEY)})`);
  });

  it('goes back to sign-in with a message when the key stops working', async () => {
    await inPage(page, `sessionStorage.setItem('memsvc.apiKey', 'revoked-key')`);
    await page.goto(`${server.baseUrl}/`);
    await page.getByText('The API key was not accepted. Sign in again.').waitFor();
    await page.getByLabel('API key').waitFor();
    assert.equal(await inPage(page, `sessionStorage.getItem('memsvc.apiKey')`), null);
  });

  it('made no request outside 127.0.0.1 and logged no errors', () => {
    assert.ok(requested.length > 10);
    const outside = requested.filter((url) => !url.startsWith('data:') && new URL(url).hostname !== '127.0.0.1');
    assert.deepEqual(outside, []);
    // A refused key (401) and the scoped key's look at a conversation outside its grants (404) are logged by the
    // browser as failed resource loads; nothing else may be.
    const unexpected = consoleErrors.filter((text) => !/status of (401|404)/.test(text));
    assert.deepEqual(unexpected, []);
  });
});
