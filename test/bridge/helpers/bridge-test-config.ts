import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type DeepPartial } from '../../../src/config/config.loader.js';
import type { Config } from '../../../src/config/config.schema.js';
import type { BridgeConfig } from '../../../src/bridge/bridge.app.js';
import type { TextEmbedder } from '../../../src/ports/text-embedder.js';

/** The default bridge config (no file, no environment) with overrides. */
export function bridgeConfig(overrides: DeepPartial<Config['bridge']> = {}): BridgeConfig {
  const config = loadConfig({ file: join(tmpdir(), 'memsvc-no-such-file.yaml'), env: {}, overrides: { bridge: overrides } });
  return { ...config.bridge, cacheDir: join(tmpdir(), 'memsvc-bridge-test-cache') };
}

/** A tiny deterministic embedder: 8 dimensions from character codes. */
export function testEmbedder(): TextEmbedder & { calls: number } {
  const embedder = {
    model: 'test-embedder-v1',
    dimension: 8,
    calls: 0,
    async embed(texts: readonly string[]) {
      embedder.calls++;
      return texts.map((text) => {
        const v = new Float32Array(8);
        for (let i = 0; i < text.length; i++) v[i % 8]! += text.charCodeAt(i);
        v[7]! += 1;
        const norm = Math.hypot(...v);
        return v.map((x) => x / norm);
      });
    },
  };
  return embedder;
}
