import type { Logger } from '../ports/logger.js';
import type { EmbeddingModelInfo, EmbeddingQueue } from '../ports/embedding-queue.js';
import type { OpenVectorIndex, SaveScope, VectorIndex } from '../ports/vector-index.js';

export interface ModelMismatch {
  recorded: EmbeddingModelInfo;
  current: EmbeddingModelInfo;
}

/**
 * Where the approximate index stands against the stored vectors. After a
 * start (or crash) the saved graph is loaded in the background and then only
 * the vectors it lacks are added; until `ready`, semantic results may miss
 * messages and say so (`partial`).
 */
export interface IndexCatchUp {
  state: 'empty' | 'loading' | 'catching_up' | 'ready' | 'failed';
  /** Vectors in the index now. */
  indexed: number;
  /** Whether a saved graph was found and loaded at start. */
  loaded_saved: boolean | null;
  /** Stored vectors the catch-up found missing and has added so far. */
  added: number;
  started_at: string | null;
  finished_at: string | null;
  error: string | null;
}

/**
 * Keys read per step of the catch-up scan. Each page is a synchronous read on the event loop, and listing
 * message_vectors' keys reads about one page of the file per vector: at 1,140,000 vectors a page of 20,000
 * keys held requests back 41-44 ms, one of 2,000 keys 4 ms, for the same 1.8 s in all (warm cache).
 */
const CATCH_UP_KEY_PAGE = 2_000;
/** Vectors fetched and inserted per step of the catch-up. */
const CATCH_UP_ADD_BATCH = 512;
/**
 * An index that fails (its thread ended) is opened again after RESTART_FIRST_MS, twice as long after each further
 * failure up to RESTART_MAX_MS: an index that fails as it loads must not take a core loading it over and over.
 * A failure RESTART_FORGET_MS after the one before starts the count again.
 */
const RESTART_FIRST_MS = 1000;
const RESTART_MAX_MS = 60_000;
const RESTART_FORGET_MS = 10 * 60_000;

/**
 * Knows the model the stored vectors were made with, and when the bridge now
 * serves another model (then the stored vectors are not comparable with new
 * ones until a rebuild). With a local index (the SQLite driver) it also owns
 * that index; without one (`openIndex` null: the database searches vectors
 * itself) it keeps only the model. Never rebuilds before the service listens:
 * the local index is loaded and catches up in the background.
 */
export class VectorIndexHolder {
  private index: VectorIndex | null = null;
  private model: EmbeddingModelInfo | null = null;
  private mismatch: ModelMismatch | null = null;
  private generation = 0;
  private catchUpDone: Promise<void> = Promise.resolve();
  private progress: IndexCatchUp = emptyProgress();
  private restartTimer: NodeJS.Timeout | null = null;
  /** Failures of the index since the count last started again (see RESTART_FORGET_MS), and when the last was. */
  private failures = 0;
  private lastFailureAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly queue: EmbeddingQueue,
    private readonly openIndex: OpenVectorIndex | null,
    private readonly log: Logger,
  ) {}

  /** Opens the index of the recorded model; loading and catching up continue in the background. */
  async start(): Promise<void> {
    const recorded = await this.queue.recordedModel();
    if (recorded) await this.open(recorded);
  }

  current(): { index: VectorIndex | null; model: EmbeddingModelInfo | null; mismatch: ModelMismatch | null } {
    return { index: this.index, model: this.model, mismatch: this.mismatch };
  }

  /** True until the saved graph is loaded: searching it would wait for the load. */
  loading(): boolean {
    return this.progress.state === 'loading';
  }

  /** True while the local index may lack stored vectors (loading or catching up after a start). */
  partial(): boolean {
    return this.progress.state === 'loading' || this.progress.state === 'catching_up' || this.progress.state === 'failed';
  }

  /** For /health: how far the local index has caught up with the stored vectors. */
  catchUpStatus(): IndexCatchUp {
    return { ...this.progress, indexed: this.index?.size() ?? 0 };
  }

  /** Resolves when the current catch-up has finished (for tests and benchmarks). */
  async caughtUp(): Promise<void> {
    await this.catchUpDone;
  }

  /**
   * Accepts vectors from `model` if they are comparable with what is stored:
   * the first model ever seen is recorded; another one is a mismatch.
   */
  async accept(model: EmbeddingModelInfo): Promise<boolean> {
    if (this.model === null || this.mismatch !== null) {
      // The store may be shared with other replicas: the model recorded there wins, whoever wrote it first.
      const recorded = await this.queue.recordModel(model);
      if (this.model === null || !sameModel(recorded, this.model)) await this.open(recorded);
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
    if (this.model !== null) return;
    const recorded = await this.queue.recordedModel();
    if (recorded === null || this.model !== null) return;
    await this.open(recorded);
  }

  /** Forgets the model and empties the index, for a rebuild (the queue clears the stored vectors). */
  async reset(): Promise<void> {
    const index = this.index;
    this.detach();
    this.model = null;
    this.mismatch = null;
    if (index) {
      await index.clear().catch(() => undefined);
      await index.close();
    }
  }

  async save(scope: SaveScope = 'every-change'): Promise<void> {
    if (!this.index || this.loading()) return;
    try {
      await this.index.save(scope);
    } catch (error) {
      this.log.error({ err: error }, 'saving the vector index failed; missing vectors are added again on the next start');
    }
  }

  async close(): Promise<void> {
    const index = this.index;
    this.generation += 1;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    await this.catchUpDone.catch(() => undefined);
    if (index) {
      // The vectors still waiting for the graph go in first, so the next start finds nothing to catch up.
      await index.flush().catch(() => undefined);
      await index.save().catch((error: unknown) => this.log.error({ err: error }, 'saving the vector index failed'));
      await index.close();
    }
    this.index = null;
  }

  /** Stops any catch-up and lets go of the index (its owner closes it). */
  private detach(): void {
    this.generation += 1;
    this.index = null;
    this.progress = emptyProgress();
  }

  private async open(model: EmbeddingModelInfo): Promise<void> {
    const previous = this.index;
    this.detach();
    await previous?.close();
    this.model = model;
    if (this.openIndex === null) return;
    const generation = this.generation;
    const { index, loaded } = this.openIndex(model.model, model.dimension, (error) => this.failed(generation, model, error));
    this.index = index;
    this.progress = { ...emptyProgress(), state: 'loading', started_at: new Date().toISOString() };
    this.catchUpDone = this.catchUp(index, loaded, generation).catch((error: unknown) => {
      if (generation !== this.generation) return;
      this.progress = { ...this.progress, state: 'failed', error: (error as Error).message };
      this.log.error({ err: error }, 'vector index catch-up failed; semantic results stay partial');
    });
  }

  /**
   * The index opened as `generation` stopped working (its thread ended): searches answer without it (partial) and
   * vectors stay stored, until it is opened again, which loads the saved graph and adds the stored vectors it lacks.
   */
  private failed(generation: number, model: EmbeddingModelInfo, error: Error): void {
    if (generation !== this.generation) return;
    const index = this.index;
    this.detach();
    this.progress = { ...emptyProgress(), state: 'failed', error: error.message };
    void index?.close().catch(() => undefined);
    const now = performance.now();
    if (now - this.lastFailureAt > RESTART_FORGET_MS) this.failures = 0;
    this.lastFailureAt = now;
    this.failures += 1;
    const delayMs = reopenDelayMs(this.failures);
    this.log.error({ err: error, reopenInMs: delayMs, failures: this.failures },
      'the vector index failed; semantic results are partial until it is open again and has caught up');
    const restart = this.generation;
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      if (restart !== this.generation) return;
      this.open(model).catch((reopenError: unknown) => this.log.error({ err: reopenError }, 'opening the vector index again failed'));
    }, delayMs);
    this.restartTimer.unref();
  }

  /** Loads the saved graph, then adds the stored vectors it lacks (written after its last save, or all of them). */
  private async catchUp(index: VectorIndex, loaded: Promise<boolean>, generation: number): Promise<void> {
    const started = performance.now();
    const loadedSaved = await loaded;
    if (generation !== this.generation) return;
    this.progress = { ...this.progress, state: 'catching_up', loaded_saved: loadedSaved };
    this.log.info({ indexed: index.size(), loaded: loadedSaved, ms: Math.round(performance.now() - started) },
      'vector index opened; adding the stored vectors it lacks in the background');
    for await (const keys of this.queue.vectorKeys(CATCH_UP_KEY_PAGE)) {
      if (generation !== this.generation) return;
      const missing = await index.missing(keys);
      for (let i = 0; i < missing.length; i += CATCH_UP_ADD_BATCH) {
        const found = await this.queue.vectorsByKey(missing.slice(i, i + CATCH_UP_ADD_BATCH));
        if (generation !== this.generation) return;
        await index.add(found.map((item) => item.key), found.map((item) => item.vector));
        this.progress = { ...this.progress, added: this.progress.added + found.length };
      }
    }
    if (generation !== this.generation) return;
    if (this.progress.added > 0) {
      await index.flush();
      if (generation !== this.generation) return;
      await index.save();
    }
    this.progress = { ...this.progress, state: 'ready', finished_at: new Date().toISOString() };
    this.log.info({ indexed: index.size(), added: this.progress.added, ms: Math.round(performance.now() - started) },
      'vector index caught up');
  }
}

/** How long a failed index waits before it is opened again, after its `failures`-th failure in a row (1 s, 2, 4 ... 60). */
export function reopenDelayMs(failures: number): number {
  return Math.min(RESTART_MAX_MS, RESTART_FIRST_MS * 2 ** Math.max(0, failures - 1));
}

function emptyProgress(): IndexCatchUp {
  return { state: 'empty', indexed: 0, loaded_saved: null, added: 0, started_at: null, finished_at: null, error: null };
}

const sameModel = (a: EmbeddingModelInfo, b: EmbeddingModelInfo) => a.model === b.model && a.dimension === b.dimension;
