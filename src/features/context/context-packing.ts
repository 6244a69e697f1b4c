/** Share of the budget kept free for the caller's system prompt. */
export const SYSTEM_PROMPT_RESERVE = 0.15;

/** Tokens the assembled context may use: the budget less the system-prompt reserve. */
export const availableTokens = (budget: number): number => Math.floor(budget * (1 - SYSTEM_PROMPT_RESERVE));

export interface PackOptions<T> {
  /** Tokens an item takes in the context. */
  cost: (item: T) => number;
  /** Items with a key already packed are skipped (e.g. the same text said twice). */
  dedupeKey?: (item: T) => string;
}

export interface Packed<T> {
  items: T[];
  tokens: number;
}

/**
 * Greedy packing: walks the items in the given (ranked) order and keeps each
 * one that still fits in `capacity` tokens. An item too large to fit is skipped,
 * not truncated, so smaller later items can still use the room.
 */
export function packGreedy<T>(ranked: readonly T[], capacity: number, options: PackOptions<T>): Packed<T> {
  const items: T[] = [];
  const seen = new Set<string>();
  let tokens = 0;
  for (const item of ranked) {
    if (capacity - tokens <= 0) break;
    const cost = options.cost(item);
    if (tokens + cost > capacity) continue;
    const key = options.dedupeKey?.(item);
    if (key !== undefined && seen.has(key)) continue;
    items.push(item);
    tokens += cost;
    if (key !== undefined) seen.add(key);
  }
  return { items, tokens };
}

/** Same text up to case and spacing. */
export const contentKey = (content: string): string => content.trim().replace(/\s+/g, ' ').toLowerCase();
