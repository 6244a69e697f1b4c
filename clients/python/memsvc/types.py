"""The shapes memsvc answers with, as ``TypedDict``s.

Every method returns plain ``dict``s and ``list``s parsed from JSON; these types describe them for editors and type
checkers and cost nothing at runtime. Field names are the API's own (snake_case, as in docs/api.md); timestamps
are ISO 8601 strings. The server may add fields within v1: read what you need and ignore the rest.
"""

from typing import Any, Dict, List, Optional, TypedDict

__all__ = [
    "MessageInput", "Grant", "SearchFilters", "Message", "Conversation", "CreatedConversation", "ListItemMetadata",
    "ConversationListItem", "ConversationPage", "MessagePage", "AppendResult", "Count", "Folder", "SearchHitMetadata",
    "SearchHit", "QueryResult", "FullTextHit", "FullTextResult", "ContextMessageMetadata", "ContextMessage",
    "ContextSource", "ContextText", "Summary", "PruningSuggestion", "DryRun", "LabelSuggestion", "LabelSuggestions",
    "ImportResult", "HealthCheck", "Health", "ToolError", "ToolEnvelope", "ToolInfo", "ToolListing", "Key",
    "CreatedKey", "Me", "Token",
]

JsonObject = Dict[str, Any]


# ---- inputs --------------------------------------------------------------------------------------------------------

class _MessageInputRequired(TypedDict):
    role: str  # "user", "assistant" or "system"
    content: str


class MessageInput(_MessageInputRequired, total=False):
    """A message to store: role and content; optionally its author's name, when it was said and free-form metadata."""

    name: Optional[str]  # the author ("Melanie"): 1 to 100 characters after trimming; None or left out: no name
    timestamp: str
    metadata: Optional[JsonObject]


class Grant(TypedDict):
    """A folder subtree a key or token may read, or write (write includes read)."""

    folder: str
    access: str  # "read" or "write"


class SearchFilters(TypedDict, total=False):
    """Filters of a search; a folder matches its subfolders too."""

    folder: str
    label: str
    importance_min: int
    importance_max: int
    date_from: str
    date_to: str
    archived: bool


# ---- conversations -------------------------------------------------------------------------------------------------

class Message(TypedDict):
    id: str
    conversation_id: str
    position: int
    role: str
    name: Optional[str]  # the author's name as given; None when not
    content: str
    timestamp: str
    embedding_id: Optional[str]
    embedding_status: str  # "pending", "done" or "failed"
    metadata: Optional[JsonObject]


class CreatedConversation(TypedDict):
    id: str
    conversation_id: str  # the same value as id
    label: str
    folder: str
    status: str
    importance_score: int
    message_count: int
    word_count: int
    session_count: int
    created_at: str
    updated_at: str


class _ConversationBase(TypedDict):
    id: str
    conversation_id: str
    label: str
    folder: str
    status: str  # "active" or "archived"
    pinned: bool
    importance_score: int
    word_count: int
    message_count: int
    session_count: int
    created_at: str
    updated_at: str
    last_accessed: str


class Conversation(_ConversationBase, total=False):
    messages: List[Message]  # only with get(..., include_messages=True)


class ListItemMetadata(TypedDict):
    folder: str
    status: str
    importance_score: int
    pinned: bool
    message_count: int
    word_count: int
    session_count: int
    created_at: str
    updated_at: str


class ConversationListItem(TypedDict):
    """A conversation in the search-hit shape: ``content`` is the label, ``message_id`` the nil UUID."""

    conversation_id: str
    message_id: str
    score: float
    content: str
    metadata: ListItemMetadata
    label: str
    folder: str
    timestamp: str


class ConversationPage(TypedDict):
    results: List[ConversationListItem]
    total: int
    page: int
    page_size: int


class MessagePage(TypedDict):
    results: List[Message]
    total: int
    page: int
    page_size: int


class AppendResult(TypedDict):
    conversation_id: str
    message_count: int
    session_count: int
    word_count: int
    messages: List[Message]


class _CountBase(TypedDict):
    count: int


class Count(_CountBase, total=False):
    label: str
    folder: str


class Folder(TypedDict):
    folder: str
    count: int  # conversations directly in the folder
    total: int  # in the folder and below


# ---- search --------------------------------------------------------------------------------------------------------

class SearchHitMetadata(TypedDict):
    role: str
    name: Optional[str]
    position: int
    importance_score: int
    status: str
    embedding_id: Optional[str]
    message_metadata: Optional[JsonObject]


class SearchHit(TypedDict):
    conversation_id: str
    message_id: str
    score: float
    content: str
    metadata: SearchHitMetadata
    label: str
    folder: str
    timestamp: str


class _QueryResultBase(TypedDict):
    results: List[SearchHit]
    total: int
    page: int
    page_size: int
    mode: str  # "hybrid", "semantic" or "keyword"


class QueryResult(_QueryResultBase, total=False):
    pending_embeddings: int
    partial: bool


class FullTextHit(TypedDict):
    id: str
    conversation_id: str
    role: str
    name: Optional[str]
    content: str
    timestamp: str
    embedding_id: Optional[str]
    metadata: Optional[JsonObject]
    score: float
    label: str
    folder: str


class FullTextResult(TypedDict):
    results: List[FullTextHit]
    total: int


# ---- orchestration -------------------------------------------------------------------------------------------------

class ContextMessageMetadata(TypedDict):
    label: str
    folder: str
    timestamp: str
    relevance_score: float
    importance_score: int
    message_metadata: Optional[JsonObject]


class ContextMessage(TypedDict):
    id: str
    conversation_id: str
    role: str
    name: Optional[str]
    content: str
    timestamp: str
    embedding_id: Optional[str]
    metadata: ContextMessageMetadata


class ContextSource(TypedDict):
    message_id: str
    conversation_id: str
    label: str
    folder: str
    timestamp: str
    relevance_score: float


class ContextText(TypedDict):
    context: str
    token_count: int
    conversation_ids: List[str]
    message_count: int
    sources: List[ContextSource]


class _SummaryBase(TypedDict):
    conversation_id: str
    level: str
    summary: str
    generated_at: str
    window_start: str
    window_end: str
    anchored_on: str
    source_count: int
    word_count: int
    model: Optional[str]
    cached: bool


class Summary(_SummaryBase, total=False):
    note: str


class PruningSuggestion(TypedDict):
    conversation_id: str
    conversation_label: str
    last_accessed: str
    last_updated: str
    message_count: int
    token_estimate: int
    importance_score: float
    preview: str
    recommendation: str  # "archive" or "keep"
    reason: str


class DryRun(TypedDict):
    suggestions: List[PruningSuggestion]
    total: int
    archive_count: int
    estimated_token_savings: int
    threshold_days: int
    importance_threshold: float
    idle_since: str


class LabelSuggestion(TypedDict):
    label: str
    confidence: float
    is_existing: bool
    reason: str


class LabelSuggestions(TypedDict):
    conversation_id: str
    suggestions: List[LabelSuggestion]
    sources: List[str]


class ImportResult(TypedDict):
    imported: int
    replaced: int
    skipped: int
    messages: int
    renamed: List[Dict[str, str]]  # [{"from": old_id, "to": new_id}]


# ---- system --------------------------------------------------------------------------------------------------------

class _HealthCheckBase(TypedDict):
    status: str  # "ok" or "error"
    latency_ms: float


class HealthCheck(_HealthCheckBase, total=False):
    error: str


class Health(TypedDict):
    healthy: bool  # added by the client: the answer was 200 (503 when unhealthy or starting)
    status: str  # "healthy" or "unhealthy"
    timestamp: str
    checks: Dict[str, HealthCheck]
    uptime_seconds: int


# ---- tools ---------------------------------------------------------------------------------------------------------

class ToolError(TypedDict):
    code: str
    message: str


class ToolEnvelope(TypedDict):
    """A tool's answer. A failure envelope is raised as a typed error, so the one you get has ``success`` True,
    the tool's result in ``data`` and ``error`` None."""

    success: bool
    data: JsonObject
    error: None


class ToolInfo(TypedDict):
    name: str
    description: str
    input_schema: JsonObject
    output_schema: JsonObject


class ToolListing(TypedDict):
    protocol_version: str
    tools: List[ToolInfo]


# ---- keys and tokens -----------------------------------------------------------------------------------------------

class Key(TypedDict):
    id: str
    name: str
    grants: List[Grant]
    admin: bool
    requests_per_second: Optional[float]
    burst: Optional[int]
    created_at: str
    last_used_at: Optional[str]
    revoked_at: Optional[str]


class CreatedKey(TypedDict):
    id: str
    key: str  # the secret: shown this once
    name: str
    grants: List[Grant]
    admin: bool
    created_at: str


class _MeBase(TypedDict):
    id: str
    name: str
    grants: List[Grant]
    admin: bool


class Me(_MeBase, total=False):
    token_expires_at: str  # when the caller is a tenant token


class Token(TypedDict):
    token: str  # a JWT: use it as an API key
    expires_at: str
    grants: List[Grant]
