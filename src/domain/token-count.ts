/** The spec's estimate: one token is four characters (code points). */
export const CHARS_PER_TOKEN = 4;

/**
 * Tokens a text takes by that estimate. One rule for the context budget, the
 * MCP and REST token_count, the proxy's memory message and the bridge's usage.
 */
export const estimateTokens = (text: string): number => Math.ceil(codePoints(text) / CHARS_PER_TOKEN);

/** Characters as the estimate counts them: code points, a surrogate pair being one. */
export function codePoints(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    // A high surrogate followed by a low one is one code point.
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i += 1;
    }
    count += 1;
  }
  return count;
}
