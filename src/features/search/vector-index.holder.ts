import type { Logger } from '../../ports/logger.js';
import type { EmbeddingModelInfo, EmbeddingQueue } from '../../ports/embedding-queue.js';
import type { OpenVectorIndex, VectorIndex } from '../../ports/vector-index.js';

export interface ModelMismatch {
  recorded: EmbeddingModelInfo;
  current: EmbeddingModelInfo;
}

const REBUILD_CHUNK = 2000;

/**
 * Knows the model the stored vectors were made with, and when the bridge now
 * serves another model (then the stored vectors are not comparable with new
 * ones until a rebuild). With a local index (the SQLite driver) it also owns
 * that index; without one (`openIndex` null: the database searches vectors
 * itself) it keeps only the model.
 */
export class VectorIndexHolder {
  private index: VectorIndex | null = null;
  private model: EmbeddingModelInfo | null = null;
  private mismatch: ModelMismatch | null = null;
  private ready: Promise<void> = Promise.resolve();

  constructor(
    private readonly queue: EmbeddingQueue,
    private readonly openIndex: OpenVectorIndex | null,
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
    if (this.model === null || this.mismatch !== null) {
      // The store may be shared with other replicas: the model recorded there wins, whoever wrote it first.
      const recorded = await this.queue.recordModel(model);
      if (this.model === null || !sameModel(recorded, this.model)) {
        this.ready = this.open(recorded);
        await this.ready;
      }
    }
    if (sameModel(this.model!, model)) {
      this.mismatch = null;
      return true;
    }
    if (this.mismatch?.current.model !== model.model) {
      this.log.warn({ recorded: this.model, current: model },
        'embedding model changed: new vectors are held back until POST /api/v1/rebuild-embeddings');
    }
    this.mismatch = { recorded: this.model!, current: model };
    return false;
  }

  /** Picks up a model another replica recorded in a shared store since this one started. */
  async refresh(): Promise<void> {
    await this.ready;
    if (this.model !== null) return;
    const recorded = await this.queue.recordedModel();
    if (recorded === null) return;
    this.ready = this.open(recorded);
    await this.ready;
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
    if (this.openIndex === null) {
      this.model = model;
      return;
    }
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

const sameModel = (a: EmbeddingModelInfo, b: EmbeddingModelInfo) => a.model === b.model && a.dimension === b.dimension;
