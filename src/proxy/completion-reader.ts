import { StringDecoder } from 'node:string_decoder';

/** What the proxy keeps of an answer: the assistant's text (first choice) and the model that wrote it. */
export interface CompletionSummary {
  content: string;
  model?: string;
}

/** The first choice's text of a non-streaming chat completion body; null when the body is not one. */
export function readCompletion(text: string): CompletionSummary | null {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof body !== 'object' || body === null) return null;
  const { choices, model } = body as { choices?: unknown; model?: unknown };
  if (!Array.isArray(choices)) return null;
  const first = choices.find((choice) => (choice as { index?: unknown })?.index === 0) ?? choices[0];
  const content = contentText((first as { message?: { content?: unknown } } | undefined)?.message?.content);
  return { content, ...(typeof model === 'string' ? { model } : {}) };
}

/**
 * Follows an SSE chat completion stream as its bytes go by: events are split on
 * blank lines, `data:` lines joined, and the first choice's `delta.content`
 * appended. Bytes are only observed, never changed.
 */
export class CompletionStreamReader {
  private readonly decoder = new StringDecoder('utf8');
  private buffer = '';
  private content = '';
  private model: string | undefined;
  /** `data: [DONE]` was seen. */
  done = false;
  /** An event carried an `error` object (the upstream failed mid-stream). */
  failed = false;

  push(chunk: Uint8Array): void {
    this.buffer += this.decoder.write(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    this.drain(false);
  }

  /** Call at the end of the stream: a last event without its blank line still counts. */
  end(): CompletionSummary {
    this.buffer += this.decoder.end();
    this.drain(true);
    return { content: this.content, ...(this.model !== undefined ? { model: this.model } : {}) };
  }

  private drain(final: boolean): void {
    const events = this.buffer.split(/\r\n\r\n|\n\n|\r\r/);
    this.buffer = final ? '' : events.pop() ?? '';
    for (const event of events) this.event(event);
  }

  private event(event: string): void {
    const data = event.split(/\r\n|\n|\r/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).replace(/^ /, ''))
      .join('\n');
    if (data === '') return;
    if (data.trim() === '[DONE]') {
      this.done = true;
      return;
    }
    let chunk: { model?: unknown; error?: unknown; choices?: Array<{ index?: number; delta?: { content?: unknown } }> };
    try {
      chunk = JSON.parse(data);
    } catch {
      return;
    }
    if (chunk.error) this.failed = true;
    if (typeof chunk.model === 'string' && this.model === undefined) this.model = chunk.model;
    for (const choice of chunk.choices ?? []) {
      if ((choice.index ?? 0) === 0) this.content += contentText(choice.delta?.content);
    }
  }
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (typeof part?.text === 'string' ? part.text : '')).join('');
}
