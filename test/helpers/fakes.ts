import type { Clock } from '../../src/ports/clock.js';
import type { EmbeddingBatch, EmbeddingProvider } from '../../src/ports/embedding-provider.js';

/** A deterministic, always healthy stand-in for the bridge: a vector from character codes. */
export class FakeEmbeddingProvider implements EmbeddingProvider {
  readonly model = 'test-fake';
  readonly dimension = 8;
  async embed(texts: readonly string[]): Promise<EmbeddingBatch> {
    const vectors = texts.map((text) => {
      const vector = new Float32Array(this.dimension);
      for (let i = 0; i < text.length; i += 1) vector[i % this.dimension]! += text.charCodeAt(i);
      const norm = Math.hypot(...vector) || 1;
      return vector.map((value) => value / norm);
    });
    return { model: this.model, dimension: this.dimension, vectors };
  }
  async health() {
    return { model: this.model, dimension: this.dimension };
  }
}

/** A clock that only moves when told to, so timestamps are exact. */
export class ManualClock implements Clock {
  private current: number;
  constructor(start = '2025-01-01T00:00:00.000Z') {
    this.current = Date.parse(start);
  }
  now(): Date {
    return new Date(this.current);
  }
  set(at: string): void {
    this.current = Date.parse(at);
  }
  /** Moves on by ms and returns the new time. */
  advance(ms: number): string {
    this.current += ms;
    return this.now().toISOString();
  }
}
