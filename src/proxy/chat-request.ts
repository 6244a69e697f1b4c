import { checkAuthorName } from '../domain/conversation-rules.js';
import { ProxyError, ProxyErrorCode } from './proxy-errors.js';

/** An OpenAI chat message as far as the proxy reads it; everything else passes through untouched. */
export interface ChatMessage {
  role: string;
  content?: unknown;
  [key: string]: unknown;
}

/** A chat completion request as far as the proxy reads it. */
export interface ChatCompletionBody {
  model?: unknown;
  messages: ChatMessage[];
  stream?: boolean;
  [key: string]: unknown;
}

/** Checks only what the proxy relies on; the upstream validates the rest. */
export function validateChatBody(body: unknown): ChatCompletionBody {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw invalid('Body must be a JSON object', null);
  }
  const { messages, stream } = body as Record<string, unknown>;
  if (!Array.isArray(messages) || messages.length === 0) throw invalid('messages must be a non-empty array', 'messages');
  messages.forEach((message, index) => {
    if (typeof message !== 'object' || message === null || typeof (message as ChatMessage).role !== 'string') {
      throw invalid(`messages[${index}] must be an object with a string role`, `messages[${index}]`);
    }
  });
  if (stream !== undefined && stream !== null && typeof stream !== 'boolean') throw invalid('stream must be a boolean', 'stream');
  return body as ChatCompletionBody;
}

/** The text of a message: a string content, or the text parts of an array content joined by newlines. */
export function messageText(message: ChatMessage): string {
  const { content } = message;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((part): part is { type: 'text'; text: string } =>
      typeof part === 'object' && part !== null && (part as { type?: unknown }).type === 'text'
      && typeof (part as { text?: unknown }).text === 'string')
    .map((part) => part.text)
    .join('\n');
}

/** The text of the newest user message (what context is assembled for and what gets stored), or ''. */
export function latestUserText(messages: readonly ChatMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    if (messages[i]!.role === 'user') return messageText(messages[i]!).trim();
  }
  return '';
}

/**
 * The author name (OpenAI's `name`) of the newest user message, as the store takes it; undefined when there is
 * none or the store would refuse it (too long, control characters), so the exchange is still stored, unnamed.
 */
export function latestUserName(messages: readonly ChatMessage[]): string | undefined {
  const name = messages.findLast((message) => message.role === 'user')?.name;
  if (typeof name !== 'string') return undefined;
  try {
    return checkAuthorName(name);
  } catch {
    return undefined;
  }
}

export function firstUserText(messages: readonly ChatMessage[]): string {
  const first = messages.find((message) => message.role === 'user' && messageText(message).trim() !== '');
  return first ? messageText(first).trim() : '';
}

/** The memory message goes after the client's own leading system/developer messages, so theirs stays first. */
export function withSystemMessage(messages: readonly ChatMessage[], content: string): ChatMessage[] {
  let at = 0;
  while (at < messages.length && (messages[at]!.role === 'system' || messages[at]!.role === 'developer')) at += 1;
  return [...messages.slice(0, at), { role: 'system', content }, ...messages.slice(at)];
}

export const DEFAULT_LABEL = 'Chat';
const LABEL_CHARS = 60;

/** A label for a new conversation: the first user message on one line, cut at a word near 60 characters. */
export function labelFrom(text: string, maxChars: number): string {
  // eslint-disable-next-line no-control-regex
  const line = text.replace(/[\u0000-\u001f\u007f\s]+/g, ' ').trim();
  if (line === '') return DEFAULT_LABEL;
  const limit = Math.min(LABEL_CHARS, maxChars);
  const chars = [...line];
  if (chars.length <= limit) return line;
  const cut = chars.slice(0, limit - 1).join('');
  const atWord = cut.replace(/\s+\S*$/, '');
  return `${atWord.length >= limit / 2 ? atWord : cut}…`;
}

function invalid(message: string, param: string | null): ProxyError {
  return new ProxyError(400, ProxyErrorCode.INVALID_REQUEST, message, param);
}
