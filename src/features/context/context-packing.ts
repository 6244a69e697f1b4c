/** Share of the budget kept free for the caller's system prompt. */
export const SYSTEM_PROMPT_RESERVE = 0.15;

/** Tokens the assembled context may use: the budget less the system-prompt reserve. */
export const availableTokens = (budget: number): number => Math.floor(budget * (1 - SYSTEM_PROMPT_RESERVE));

export interface PackOptions<T> {
  /** What an item takes in the context, in the capacity's unit (tokens, or characters for the text form). */
  cost: (item: T) => number;
  /** Items with a key already packed are skipped (e.g. the same text said twice). */
  dedupeKey?: (item: T) => string;
  /**
   * Items of one group share a cost (the text form's header over one conversation's messages of a day):
   * the item that opens its group pays `cost` for it on top of its own, the group's later items do not.
   */
  group?: { key: (item: T) => string; cost: (item: T) => number };
}

export interface Packed<T> {
  items: T[];
  /** What the packed items take, in the capacity's unit. */
  tokens: number;
}

/**
 * Greedy packing: walks the items in the given (ranked) order and keeps each
 * one that still fits in `capacity`. An item too large to fit is skipped,
 * not truncated, so smaller later items can still use the room.
 */
export function packGreedy<T>(ranked: readonly T[], capacity: number, options: PackOptions<T>): Packed<T> {
  const items: T[] = [];
  const seen = new Set<string>();
  const groups = new Set<string>();
  let tokens = 0;
  for (const item of ranked) {
    if (capacity - tokens <= 0) break;
    const group = options.group?.key(item);
    const opens = group !== undefined && !groups.has(group);
    const cost = options.cost(item) + (opens ? options.group!.cost(item) : 0);
    if (tokens + cost > capacity) continue;
    const key = options.dedupeKey?.(item);
    if (key !== undefined && seen.has(key)) continue;
    items.push(item);
    tokens += cost;
    if (key !== undefined) seen.add(key);
    if (opens) groups.add(group);
  }
  return { items, tokens };
}

/** Same text up to case and spacing. */
export const contentKey = (content: string): string => content.trim().replace(/\s+/g, ' ').toLowerCase();
