import { Type, type TObject } from 'typebox';
import { ErrorResponse } from '../features/conversations/conversations.schemas.js';

const ToolError = Type.Object({ code: Type.String(), message: Type.String() });

/** Every failure: the envelope with data null, sent with its 4xx/5xx status. */
export const FailureEnvelope = Type.Object({ success: Type.Literal(false), data: Type.Null(), error: ToolError });

/** A failing call: the tool's envelope, or the API's error when the request never reached the tool (bad JSON, too large). */
export const ToolFailure = Type.Union([FailureEnvelope, ErrorResponse]);

/** A tool's success: the envelope around its output schema. */
export const successEnvelope = (output: TObject) => Type.Object({ success: Type.Literal(true), data: output, error: Type.Null() });

/** The generic route's answer: any tool's envelope. */
export const AnyEnvelope = Type.Object({
  success: Type.Boolean(),
  data: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
  error: Type.Union([ToolError, Type.Null()]),
});

export const ToolListing = Type.Object({
  protocol_version: Type.String(),
  tools: Type.Array(Type.Object({
    name: Type.String(),
    description: Type.String(),
    input_schema: Type.Record(Type.String(), Type.Unknown()),
    output_schema: Type.Record(Type.String(), Type.Unknown()),
  })),
});

export const ToolParams = Type.Object({ tool: Type.String() });

/** The generic route's body: the named tool's parameters (checked against that tool's input schema). */
export const ToolParameters = Type.Optional(Type.Unknown());
