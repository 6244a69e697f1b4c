import { Type, type Static } from 'typebox';
import { StringEnum } from '../../http/schema-types.js';
import { MAX_AUTHOR_NAME_CHARS, MAX_IMPORTANCE } from '../../domain/conversation.js';

/** Shared building blocks, also used by other features and the MCP tools. */
export const ErrorResponse = Type.Object(
  { error: Type.String(), code: Type.Optional(Type.String()) },
  { $id: 'ErrorResponse', description: 'Every error: a message for people and a stable code for programs.' },
);

/** A 200/202 without a body. */
export const EmptyResponse = Type.Unsafe<undefined>({ description: 'Empty body' });

export const Role = StringEnum(['user', 'assistant', 'system']);
export const Metadata = Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]);
export const Timestamp = Type.String({ description: 'ISO 8601, UTC, with Z' });
/** A stored message's author name, on every answer that carries the message. */
export const AuthorName = Type.Union([Type.String(), Type.Null()], { description: 'Who wrote the message (messages[].name); null when not given.' });

export const MessageInput = Type.Object({
  role: Role,
  // null is accepted as "no name", as every answer writes a message without one: a message read back can be sent again.
  name: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: `The author's name, as OpenAI's chat message name ` +
    `("Melanie"): 1 to ${MAX_AUTHOR_NAME_CHARS} characters after trimming, no control characters; null or absent: none. ` +
    'Named-author ranking reads it before a "Name:" at the start of content.' })),
  content: Type.String({ minLength: 1, description: 'At most limits.max_message_chars (100,000) characters.' }),
  timestamp: Type.Optional(Type.String({ description: 'When it was said (ISO 8601; without a zone, UTC); default now.' })),
  metadata: Type.Optional(Metadata),
}, { additionalProperties: false });
export type MessageInput = Static<typeof MessageInput>;

export const MessageResponse = Type.Object({
  id: Type.String(),
  conversation_id: Type.String(),
  position: Type.Integer(),
  role: Role,
  name: AuthorName,
  content: Type.String(),
  timestamp: Timestamp,
  embedding_id: Type.Union([Type.String(), Type.Null()]),
  embedding_status: StringEnum(['pending', 'done', 'failed']),
  metadata: Metadata,
});

export const ConversationIdParams = Type.Object({ id: Type.String() });

const ConversationId = Type.String({ description: 'UUID of the conversation' });
const Importance = Type.Integer({ minimum: 1, maximum: MAX_IMPORTANCE });

/** A conversation named in the body (the tool form of `/conversations/{id}` routes). */
export const ConversationIdBody = Type.Object({ conversation_id: ConversationId }, { additionalProperties: false });

export const CreateConversationBody = Type.Object({
  label: Type.String({ description: 'Required; 1 to limits.max_label_chars (200) characters after trimming, no control characters.' }),
  folder: Type.Optional(Type.String({ description: 'Path such as /work/backend; default "/".' })),
  messages: Type.Array(MessageInput, { description: 'May be empty; append more later.' }),
  importance_score: Type.Optional(Importance),
  importance: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_IMPORTANCE, description: 'Alias of importance_score.' })),
}, { additionalProperties: false });
export type CreateConversationBody = Static<typeof CreateConversationBody>;

export const CreateConversationResponse = Type.Object({
  id: Type.String(),
  conversation_id: Type.String(),
  label: Type.String(),
  folder: Type.String(),
  status: Type.String(),
  importance_score: Type.Integer(),
  message_count: Type.Integer(),
  word_count: Type.Integer(),
  session_count: Type.Integer(),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const ConversationResponse = Type.Object({
  id: Type.String(),
  conversation_id: Type.String(),
  label: Type.String(),
  folder: Type.String(),
  status: Type.String(),
  pinned: Type.Boolean(),
  importance_score: Type.Integer(),
  word_count: Type.Integer(),
  message_count: Type.Integer(),
  session_count: Type.Integer(),
  created_at: Timestamp,
  updated_at: Timestamp,
  last_accessed: Timestamp,
  messages: Type.Optional(Type.Array(MessageResponse)),
});

export const GetConversationQuery = Type.Object({
  include: Type.Optional(StringEnum(['messages'], { description: 'Return all messages inline.' })),
});

export const BooleanQuery = Type.Boolean({ description: 'true or false' });

export const ListConversationsQuery = Type.Object({
  page: Type.Integer({ minimum: 1, default: 1 }),
  page_size: Type.Integer({ minimum: 1, default: 50, description: 'At most limits.max_page_size (1000).' }),
  label: Type.Optional(Type.String()),
  folder: Type.Optional(Type.String({ description: 'Matches the folder and its subfolders.' })),
  pinned: Type.Optional(BooleanQuery),
  archived: Type.Optional(BooleanQuery),
  sort: StringEnum(['updated_at', 'created_at', 'importance_score', 'label'], { default: 'updated_at' }),
  order: StringEnum(['desc', 'asc'], { default: 'desc' }),
}, { additionalProperties: false });
export type ListConversationsQuery = Static<typeof ListConversationsQuery>;

/** A list item in the search-hit shape, standing for a whole conversation. */
export const ConversationListItem = Type.Object({
  conversation_id: Type.String(),
  message_id: Type.String({ description: 'Always the nil UUID for list items.' }),
  score: Type.Number(),
  content: Type.String({ description: 'The label.' }),
  metadata: Type.Object({
    folder: Type.String(),
    status: Type.String(),
    importance_score: Type.Integer(),
    pinned: Type.Boolean(),
    message_count: Type.Integer(),
    word_count: Type.Integer(),
    session_count: Type.Integer(),
    created_at: Timestamp,
    updated_at: Timestamp,
  }),
  label: Type.String(),
  folder: Type.String(),
  timestamp: Type.String({ description: 'updated_at of the conversation' }),
});

export const ListConversationsResponse = Type.Object({
  results: Type.Array(ConversationListItem),
  total: Type.Integer(),
  page: Type.Integer(),
  page_size: Type.Integer(),
});

export const UpdateLabelBody = Type.Object({ label: Type.String(), folder: Type.String() }, { additionalProperties: false });
export const UpdateFolderBody = Type.Object({ folder: Type.String() }, { additionalProperties: false });
export const SetImportanceBody = Type.Object(
  { importance_score: Type.Integer({ minimum: 1, maximum: MAX_IMPORTANCE }) },
  { additionalProperties: false },
);

export const CountQuery = Type.Object({
  label: Type.Optional(Type.String()),
  folder: Type.Optional(Type.String()),
}, { additionalProperties: false });

export const CountResponse = Type.Object({
  count: Type.Integer(),
  label: Type.Optional(Type.String()),
  folder: Type.Optional(Type.String()),
});

export const AppendMessagesBody = Type.Object({ messages: Type.Array(MessageInput, { minItems: 1 }) },
  { additionalProperties: false });

/** The tool form of append: the conversation is named in the body rather than the path. */
export const AppendToConversationBody = Type.Object({
  conversation_id: ConversationId,
  messages: AppendMessagesBody.properties.messages,
}, { additionalProperties: false });

export const AppendMessagesResponse = Type.Object({
  conversation_id: Type.String(),
  message_count: Type.Integer(),
  session_count: Type.Integer(),
  word_count: Type.Integer(),
  messages: Type.Array(MessageResponse),
});

export const ListMessagesQuery = Type.Object({
  page: Type.Integer({ minimum: 1, default: 1 }),
  page_size: Type.Integer({ minimum: 1, default: 100, description: 'At most limits.max_page_size (1000).' }),
}, { additionalProperties: false });

export const ListMessagesResponse = Type.Object({
  results: Type.Array(MessageResponse),
  total: Type.Integer(),
  page: Type.Integer(),
  page_size: Type.Integer(),
});

export const FolderTreeResponse = Type.Object({
  folders: Type.Array(Type.Object({
    folder: Type.String(),
    count: Type.Integer({ description: 'Conversations directly in this folder' }),
    total: Type.Integer({ description: 'Conversations in this folder and below' }),
  })),
});

/** One change of label, folder, status and importance at once (what the HTTP form spreads over several PUTs). */
export const UpdateConversationBody = Type.Object({
  conversation_id: ConversationId,
  label: Type.Optional(Type.String()),
  folder: Type.Optional(Type.String()),
  status: Type.Optional(StringEnum(['active', 'archived'])),
  importance_score: Type.Optional(Importance),
}, { additionalProperties: false });

export const UpdateConversationResponse = Type.Object({
  conversation_id: Type.String(),
  updated_fields: Type.Array(Type.String(), { description: 'label, folder, status, importance_score: the fields given' }),
  message: Type.String(),
});

/** A conversation's metadata without its messages (memory_get_context). */
export const ConversationMetadataResponse = Type.Object({
  conversation_id: Type.String(),
  label: Type.String(),
  status: Type.String(),
  folder: Type.String(),
  importance_score: Type.Integer(),
  word_count: Type.Integer(),
  session_count: Type.Integer(),
  message_count: Type.Integer(),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const DeleteConversationResponse = Type.Object({ conversation_id: Type.String(), deleted: Type.Boolean() });

/** Totals for all conversations, a folder subtree or a label (the filter CountQuery takes: one of the two, not both). */
export const ConversationStatsQuery = CountQuery;

export const ConversationStatsResponse = Type.Object({
  total_conversations: Type.Integer(),
  average_importance: Type.Number({ description: 'Mean importance_score, rounded to 2 decimals; 0 when nothing matches' }),
  folders: Type.Optional(Type.Array(Type.Object({ folder: Type.String(), count: Type.Integer(), average_importance: Type.Number() }),
    { description: 'Without label: one entry per folder' })),
  labels: Type.Optional(Type.Array(Type.Object({ label: Type.String(), count: Type.Integer(), average_importance: Type.Number() }),
    { description: 'With label: one entry per label' })),
  folder: Type.Optional(Type.String({ description: 'The folder filter as applied (normalized)' })),
  label: Type.Optional(Type.String()),
});
