import type { Ajv } from 'ajv';
import { NotFoundError, ValidationError, type DomainError } from '../domain/errors.js';
import { describeJsonBoundsIssue, findJsonBoundsIssue } from '../domain/json-bounds.js';
import { validationMessage, type ValidationIssue } from '../http/error-handler.js';
import { INTERNAL_ERROR, toWireError, wireErrorOf, type WireError } from '../http/error-mapping.js';
import { createJsonAjv } from '../http/request-validation.js';
import { DeferredCompilation } from '../http/deferred-compilation.js';
import type { Logger } from '../ports/logger.js';
import type { MemoryTool } from './memory-tools.js';

/** The tools by name, as one caller's scope has them. */
export type ScopedTools = ReadonlyMap<string, MemoryTool>;

/** The spec's tool envelope. */
export type ToolEnvelope =
  | { success: true; data: Record<string, unknown>; error: null }
  | { success: false; data: null; error: { code: string; message: string } };

export interface ToolOutcome {
  /** The HTTP status the REST form answers with. */
  status: number;
  envelope: ToolEnvelope;
}

/**
 * Validates tool parameters against the tool's schema (defaults filled in) and runs it, never throwing. Each tool's
 * validator is compiled at its first use or by `compilation` (the app's: after it listens).
 */
export class ToolInvoker {
  private readonly validators = new Map<string, ReturnType<DeferredCompilation['defer']>>();
  private readonly byName: Map<string, MemoryTool>;
  private ajv: Ajv | null = null;

  constructor(readonly tools: readonly MemoryTool[], private readonly log: Logger,
    compilation: DeferredCompilation = new DeferredCompilation()) {
    this.byName = new Map(tools.map((tool) => [tool.name, tool]));
    for (const tool of tools) {
      this.validators.set(tool.name, compilation.defer(() => (this.ajv ??= createJsonAjv()).compile(tool.inputSchema)));
    }
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  /**
   * Runs the tool `name` as `scoped` has it (the caller's scope: the same tools over services that see only its
   * grants), after validating against the schema compiled here once.
   */
  async invoke(name: string, params: unknown, scoped: ScopedTools = this.byName): Promise<ToolOutcome> {
    const tool = scoped.get(name);
    if (!tool) return failure(new NotFoundError(`Unknown tool: ${name}; see GET /mcp/tools`));
    const raw = params ?? {};
    if (typeof raw !== 'object' || Array.isArray(raw)) {
      return failure(new ValidationError('Tool parameters must be a JSON object'));
    }
    // Bounded before anything recurses into it (the copy below, the validator, the tool).
    const issue = findJsonBoundsIssue(raw, 'params');
    if (issue) return failure(new ValidationError(describeJsonBoundsIssue(issue)));
    try {
      // Defaults are written into the input, so validate a copy.
      const input = structuredClone(raw);
      const validate = this.validators.get(name)!;
      if (!validate(input)) {
        return failure(new ValidationError(validationMessage('params', (validate.errors as ValidationIssue[])[0]!)));
      }
      return { status: 200, envelope: { success: true, data: await tool.run(input as never), error: null } };
    } catch (error) {
      const known = toWireError(error);
      if (!known) this.log.error({ err: error, tool: name }, 'tool failed');
      return toolFailure(known ?? INTERNAL_ERROR);
    }
  }
}

const failure = (error: DomainError): ToolOutcome => toolFailure(wireErrorOf(error));

/** The spec's failure envelope for an error already mapped for the wire. */
export const toolFailure = ({ status, code, message }: WireError): ToolOutcome =>
  ({ status, envelope: { success: false, data: null, error: { code, message } } });
