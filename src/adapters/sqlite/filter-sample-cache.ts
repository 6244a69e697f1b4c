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
  private readonly entries = new Map<string, { at: number; matching: number; sample: Promise<Float32Array> }>();

  constructor(private readonly now: () => number = Date.now) {}

  get(filter: SearchFilter, matching: number, read: () => Promise<Float32Array>): Promise<Float32Array> {
    const key = JSON.stringify(filter);
    const entry = this.entries.get(key);
    const now = this.now();
    if (entry && now - entry.at < MAX_AGE_MS && Math.abs(matching - entry.matching) <= DRIFT * entry.matching) return entry.sample;
    const sample = read();
    const kept = { at: now, matching, sample };
    this.entries.delete(key);
    this.entries.set(key, kept);
    if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    sample.catch(() => { if (this.entries.get(key) === kept) this.entries.delete(key); });
    return sample;
  }
}
const MAX_AGE_MS = 5 * 60_000;
const DRIFT = 0.1;
/** 16 samples of 256 vectors of 768 floats: 12.6 MB at most. */
const MAX_ENTRIES = 16;
