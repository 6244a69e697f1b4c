import { Type } from 'typebox';

export const SuggestLabelsBody = Type.Object({
  conversation_id: Type.String({ description: 'UUID of the conversation' }),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 10 })),
}, { additionalProperties: false });

export const LabelSuggestionResponse = Type.Object({
  label: Type.String(),
  confidence: Type.Number({ minimum: 0, maximum: 1 }),
  is_existing: Type.Boolean({ description: 'Already used by other conversations' }),
  reason: Type.String(),
});

export const SuggestLabelsResponse = Type.Object({
  conversation_id: Type.String(),
  suggestions: Type.Array(LabelSuggestionResponse, { description: 'Highest confidence first' }),
  sources: Type.Array(Type.String(), { description: 'Signals that contributed: embeddings, keyphrases, entities, llm' }),
});
