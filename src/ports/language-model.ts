/** Named entities found in a text, by kind. */
export interface TextEntities {
  people: string[];
  places: string[];
  organizations: string[];
  dates: string[];
  emails: string[];
  urls: string[];
}

export interface ChatTurn {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/**
 * The language tasks the controller asks of the LLM bridge besides embeddings.
 * The bridge decides how (builtin offline engine or a configured LLM).
 * Failures are UpstreamError (domain/upstream-error.ts).
 */
export interface LanguageModel {
  /** About `targetWords` words over the passages, in order; '' when they hold no text. */
  summarize(texts: readonly string[], targetWords: number): Promise<{ summary: string; model: string }>;
  extractEntities(text: string): Promise<TextEntities>;
  /** One chat completion's text; throws when no chat model is configured on the bridge. */
  chat(messages: readonly ChatTurn[], options?: { maxTokens?: number }): Promise<{ content: string; model: string }>;
}
