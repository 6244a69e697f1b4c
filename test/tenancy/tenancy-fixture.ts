import assert from 'node:assert/strict';
import type { RunningService } from '../helpers/service-harness.js';

/**
 * Two tenants and a third folder, each seeded with words, labels and ids found nowhere else, so any of them in an
 * answer to another tenant is a leak. Alice may write /t/alice and read /t/shared; Bob and /hr are foreign to her.
 */
export const MARKERS = {
  alice: 'aardvarkalpha',
  shared: 'sapphireshared',
  bob: 'bumblebeebravo',
  hr: 'hyacinthhotel',
} as const;

/** Words in each area's messages that no request ever sends: any of them in an answer is content that leaked. */
export const SECRETS = { alice: 'quasaralice', shared: 'quasarshared', bob: 'quasarbob', hr: 'quasarhr' } as const;

export const FOLDERS = { alice: '/t/alice', shared: '/t/shared', bob: '/t/bob', hr: '/hr' } as const;

export type Area = keyof typeof FOLDERS;

export interface Seeded {
  /** Conversation ids by area. */
  ids: Record<Area, string[]>;
  /** Labels by area. */
  labels: Record<Area, string>;
  alice: { id: string; key: string };
}

/** What must never reach Alice: Bob's and /hr's ids, labels, words and folders. */
export function foreignStrings(seeded: Seeded): string[] {
  return (['bob', 'hr'] as const).flatMap((area) => [
    ...seeded.ids[area], seeded.labels[area], MARKERS[area], SECRETS[area], FOLDERS[area],
  ]);
}

/**
 * No foreign string in the answer, except one the request itself sent (an answer may echo its query, a path's id,
 * or a refused folder). The secret words are never sent, so content always counts.
 */
export function assertNoLeak(text: string, forbidden: readonly string[], what: string, request = ''): void {
  const lower = text.toLowerCase();
  const sent = request.toLowerCase();
  const leaked = forbidden.filter((value) => !sent.includes(value.toLowerCase()) && lower.includes(value.toLowerCase()));
  assert.deepEqual(leaked, [], `${what} answered with another tenant's data: ${text.slice(0, 400)}`);
}

const message = (content: string, minute: number) =>
  ({ role: 'user', content, timestamp: new Date(Date.UTC(2026, 10, 20, 10, minute)).toISOString() });

/** Two conversations per area, each with its marker; Alice's key. */
export async function seedTenants(service: RunningService): Promise<Seeded> {
  const ids = { alice: [], shared: [], bob: [], hr: [] } as Record<Area, string[]>;
  const labels = { alice: 'alice-notes', shared: 'shared-notes', bob: 'bob-notes', hr: 'hr-notes' } as Record<Area, string>;
  for (const area of Object.keys(FOLDERS) as Area[]) {
    for (let i = 0; i < 2; i += 1) {
      const created = await service.api('POST', '/api/v1/conversations', {
        label: labels[area], folder: i === 0 ? FOLDERS[area] : `${FOLDERS[area]}/deeper`, importance_score: i === 0 ? 10 : 2,
        messages: [
          message(`We talked about the ${MARKERS[area]} project and its planning meeting, code ${SECRETS[area]}`, i * 2),
          message(`The ${MARKERS[area]} budget review happened on Friday`, i * 2 + 1),
        ],
      });
      assert.equal(created.status, 201, created.text);
      ids[area].push(created.body.id);
    }
  }
  const key = await service.api('POST', '/api/v1/keys', {
    name: 'alice', grants: [{ folder: FOLDERS.alice, access: 'write' }, { folder: FOLDERS.shared, access: 'read' }],
  });
  assert.equal(key.status, 201, key.text);
  return { ids, labels, alice: { id: key.body.id, key: key.body.key } };
}
