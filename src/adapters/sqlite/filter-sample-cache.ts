import type { SearchFilter } from '../../domain/search.js';

/**
 * Samples of filters' matches (matchingVectorSample), kept a while: reading one reads every match's key (55 ms for
 * 140,000 matches at a million messages), and where a filter's matches lie in the index changes slowly. A sample is
 * read again once it is MAX_AGE_MS old or the filter's count of matches has moved by more than DRIFT of it; the
 * oldest of more than MAX_ENTRIES filters goes. The count a search passes is capped (SqliteVectorSearch counts up to
 * 25 x exact_max_candidates), so beyond the cap only the age renews a sample. Searches that need a sample being
 * read wait for that read rather than starting their own; a read that fails is not kept.
 */
export class FilterSampleCache {
  private readonly entries = new Map<string, SampleEntry>();

  constructor(private readonly now: () => number = Date.now) {}

  get(filter: SearchFilter, matching: number, read: () => Promise<Float32Array>): Promise<Float32Array> {
    const key = JSON.stringify(filter);
    const entry = this.fresh(key, matching);
    if (entry) return entry.sample;
    const sample = read();
    const kept: SampleEntry = { at: this.now(), matching, sample, concentrated: false };
    this.entries.delete(key);
    this.entries.set(key, kept);
    if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    sample.catch(() => { if (this.entries.get(key) === kept) this.entries.delete(key); });
    return sample;
  }

  /**
   * Notes what the latest search among the regions this filter's sample names found: whether they are mostly the
   * filter's own (a topical folder). While that holds and the sample is kept, the filter is searched there alone
   * (isConcentrated); a later such search that finds otherwise takes it back.
   */
  noteConcentrated(filter: SearchFilter, concentrated: boolean): void {
    const entry = this.entries.get(JSON.stringify(filter));
    if (entry) entry.concentrated = concentrated;
  }

  isConcentrated(filter: SearchFilter, matching: number): boolean {
    return this.fresh(JSON.stringify(filter), matching)?.concentrated ?? false;
  }

  private fresh(key: string, matching: number): SampleEntry | undefined {
    const entry = this.entries.get(key);
    const young = entry !== undefined && this.now() - entry.at < MAX_AGE_MS;
    return young && Math.abs(matching - entry.matching) <= DRIFT * entry.matching ? entry : undefined;
  }
}

interface SampleEntry {
  at: number;
  /** The filter's count of matches when the sample was read. */
  matching: number;
  sample: Promise<Float32Array>;
  /** The regions holding the sample were last found to be mostly the filter's matches (noteConcentrated). */
  concentrated: boolean;
}
const MAX_AGE_MS = 5 * 60_000;
const DRIFT = 0.1;
/** 16 samples of 256 vectors of 768 floats: 12.6 MB at most. */
const MAX_ENTRIES = 16;
