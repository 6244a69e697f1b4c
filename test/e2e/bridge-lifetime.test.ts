import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unusedPort } from '../helpers/fake-bridge.js';
import { removeDir, seedModelCache, spawnService, type ServiceProcess } from '../helpers/service-harness.js';
import { waitFor } from '../helpers/wait-for.js';

/** The bridge child never outlives its controller, however the controller ends. */
describe('the bridge process ends with its controller', () => {
  const dirs: string[] = [];
  const services: ServiceProcess[] = [];
  after(() => {
    for (const service of services) if (service.child.exitCode === null && service.child.signalCode === null) service.child.kill('SIGKILL');
    for (const dir of dirs) removeDir(dir);
  });

  /** A service as `npm start` runs it, once its bridge answers. */
  async function started(): Promise<{ service: ServiceProcess; bridgeUrl: string }> {
    const dataDir = mkdtempSync(join(tmpdir(), 'memsvc-bridge-life-'));
    dirs.push(dataDir);
    seedModelCache(dataDir);
    const bridgeUrl = `http://127.0.0.1:${await unusedPort()}`;
    const service = await spawnService({ dataDir, env: { MEMSVC_BRIDGE_PORT: new URL(bridgeUrl).port } });
    services.push(service);
    await waitFor(async () => fetch(`${bridgeUrl}/health`).then((response) => response.status, () => 0),
      { what: 'the bridge child to answer', until: (status) => status === 200, timeoutMs: 90_000 });
    return { service, bridgeUrl };
  }

  const bridgeGone = (bridgeUrl: string) => waitFor(async () => fetch(`${bridgeUrl}/health`).then(() => 'up', () => 'down'),
    { what: 'the bridge process to be gone', until: (state) => state === 'down', timeoutMs: 10_000 });

  test('a controller killed outright (SIGKILL) leaves no bridge behind', async () => {
    const { service, bridgeUrl } = await started();
    service.child.kill('SIGKILL');
    await service.exited;
    await bridgeGone(bridgeUrl);
  });

  test('with nobody reading its logs any more, SIGTERM still shuts down cleanly, bridge and all', async () => {
    const { service, bridgeUrl } = await started();
    // The reader of its output went away (a closed pipe): the shutdown's own log line then fails to write.
    service.child.stdout!.destroy();
    service.child.stderr!.destroy();
    service.child.kill('SIGTERM');
    assert.equal(await service.exited, 0, 'the controller finished its shutdown');
    await bridgeGone(bridgeUrl);
  });
});
