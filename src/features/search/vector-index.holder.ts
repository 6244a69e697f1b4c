import type { Logger } from '../../ports/logger.js';
import type { EmbeddingModelInfo, EmbeddingQueue } from '../../ports/embedding-queue.js';
import type { VectorIndex } from '../../ports/vector-index.js';

export type OpenVectorIndex = (model: string, dimension: number) => { index: VectorIndex; loaded: boolean };

export interface ModelMismatch {
  recorded: EmbeddingModelInfo;
  current: EmbeddingModelInfo;
}

const REBUILD_CHUNK = 2000;

/**
 * Owns the approximate index for the model the stored vectors were made
 * with, and knows when the bridge now serves another model (then the stored
 * vectors are not comparable with new ones until a rebuild).
 */
export class VectorIndexHolder {
  private index: VectorIndex | null = null;
  private model: EmbeddingModelInfo | null = null;
  private mismatch: ModelMismatch | null = null;
  private ready: Promise<void> = Promise.resolve();

  constructor(
    private readonly queue: EmbeddingQueue,
    private readonly openIndex: OpenVectorIndex,
    private readonly log: Logger,
  ) {}

  /** Opens the index of the recorded model, rebuilding it from stored vectors when missing or stale. */
  async start(): Promise<void> {
    const recorded = await this.queue.recordedModel();
    if (recorded) this.ready = this.open(recorded);
    await this.ready;
  }

  current(): { index: VectorIndex | null; model: EmbeddingModelInfo | null; mismatch: ModelMismatch | null } {
    return { index: this.index, model: this.model, mismatch: this.mismatch };
  }

  /**
   * Accepts vectors from `model` if they are comparable with what is stored:
   * the first model ever seen is recorded; another one is a mismatch.
   */
  async accept(model: EmbeddingModelInfo): Promise<boolean> {
    await this.ready;
    if (this.model === null) {
      await this.queue.recordModel(model);
      this.ready = this.open(model);
      await this.ready;
      return true;
    }
    if (this.model.model === model.model && this.model.dimension === model.dimension) {
      this.mismatch = null;
      return true;
    }
    if (this.mismatch?.current.model !== model.model) {
      this.log.warn({ recorded: this.model, current: model },
        'embedding model changed: new vectors are held back until POST /api/v1/rebuild-embeddings');
    }
    this.mismatch = { recorded: this.model, current: model };
    return false;
  }

  /** Forgets the model and empties the index, for a rebuild (the queue clears the stored vectors). */
  reset(): void {
    this.index?.clear();
    this.index = null;
    this.model = null;
    this.mismatch = null;
  }

  save(): void {
    try {
      this.index?.save();
    } catch (error) {
      this.log.error({ err: error }, 'saving the vector index failed; it will be rebuilt from SQLite on the next start');
    }
  }

  private async open(model: EmbeddingModelInfo): Promise<void> {
    const { index, loaded } = this.openIndex(model.model, model.dimension);
    this.index = index;
    this.model = model;
    const stored = (await this.queue.counts()).done;
    if (loaded && index.size() === stored) return;
    this.log.info({ stored, indexed: index.size(), loaded }, 'rebuilding the vector index from stored vectors');
    index.clear();
    for await (const chunk of this.queue.allVectors(REBUILD_CHUNK)) {
      index.add(chunk.map((item) => item.key), chunk.map((item) => item.vector));
      await new Promise((resolve) => setImmediate(resolve));
    }
    index.save();
    this.log.info({ indexed: index.size() }, 'vector index rebuilt');
  }
}
