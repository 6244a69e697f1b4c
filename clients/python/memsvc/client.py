"""The memsvc client: one ``Client`` with a namespace per part of the API, mirroring the typed TypeScript client."""

import os
from typing import Any, BinaryIO, Dict, Iterator, List, Mapping, Optional, Sequence, Union, cast
from urllib.parse import quote

from ._transport import NO_BODY, QueryValue, Transport
from .errors import MemsvcError
from .types import (
    AppendResult, Conversation, ConversationListItem, ConversationPage, ContextMessage, ContextText, Count,
    CreatedConversation, CreatedKey, DryRun, Folder, FullTextResult, Grant, Health, ImportResult, Key,
    LabelSuggestions, Me, Message, MessageInput, MessagePage, QueryResult, SearchFilters, SearchHit, Summary, Token,
    ToolEnvelope, ToolListing,
)

__version__ = "0.1.0"

#: Where the client goes when neither base_url nor MEMSVC_BASE_URL says otherwise.
DEFAULT_BASE_URL = "http://127.0.0.1:8080"
#: Page size of the iterators (the server allows up to 1000).
DEFAULT_PAGE_SIZE = 100

JsonObject = Dict[str, Any]


def _without_none(values: Mapping[str, Any]) -> JsonObject:
    return {name: value for name, value in values.items() if value is not None}


def _filters(filters: Optional[SearchFilters], named: Mapping[str, Any]) -> Optional[JsonObject]:
    """The filters dict and the keyword filters, merged (the keywords win); None when there are none."""
    merged: JsonObject = dict(filters or {})
    merged.update(_without_none(named))
    return merged or None


class Conversations:
    """Create, read, list, change and delete conversations and their messages (``/api/v1/conversations``)."""

    def __init__(self, transport: Transport) -> None:
        self._http = transport

    def create(
        self,
        label: str,
        *,
        folder: Optional[str] = None,
        messages: Optional[Sequence[MessageInput]] = None,
        importance_score: Optional[int] = None,
    ) -> CreatedConversation:
        """Stores a conversation (folder default ``/``, or a scoped key's first write grant); messages may be empty."""
        body = _without_none({"label": label, "folder": folder, "importance_score": importance_score})
        body["messages"] = list(messages or [])
        return cast(CreatedConversation, self._http.request("POST", "/api/v1/conversations", json_body=body).json())

    def get(self, conversation_id: str, *, include_messages: bool = False) -> Conversation:
        """One conversation; with ``include_messages`` its messages too, in order. NotFoundError if absent."""
        query = {"include": "messages"} if include_messages else None
        return cast(Conversation, self._http.request("GET", f"/api/v1/conversations/{_segment(conversation_id)}",
                                                     query=query).json())

    def list(
        self,
        *,
        page: int = 1,
        page_size: int = DEFAULT_PAGE_SIZE,
        label: Optional[str] = None,
        folder: Optional[str] = None,
        pinned: Optional[bool] = None,
        archived: Optional[bool] = None,
        sort: str = "updated_at",
        order: str = "desc",
    ) -> ConversationPage:
        """One page of conversations (``results``, ``total``, ``page``, ``page_size``).

        ``folder`` matches its subfolders; ``sort`` is updated_at, created_at, importance_score or label.
        """
        query: Dict[str, QueryValue] = {
            "page": page, "page_size": page_size, "label": label, "folder": folder, "pinned": pinned,
            "archived": archived, "sort": sort, "order": order,
        }
        return cast(ConversationPage, self._http.request("GET", "/api/v1/conversations", query=query).json())

    def iterate(
        self,
        *,
        page_size: int = DEFAULT_PAGE_SIZE,
        label: Optional[str] = None,
        folder: Optional[str] = None,
        pinned: Optional[bool] = None,
        archived: Optional[bool] = None,
        sort: str = "updated_at",
        order: str = "desc",
    ) -> Iterator[ConversationListItem]:
        """Every matching conversation, lazily: the next page is fetched only when the previous one is used up."""
        page = 1
        while True:
            result = self.list(page=page, page_size=page_size, label=label, folder=folder, pinned=pinned,
                               archived=archived, sort=sort, order=order)
            yield from result["results"]
            if not result["results"] or page * result["page_size"] >= result["total"]:
                return
            page += 1

    def messages(self, conversation_id: str, *, page: int = 1, page_size: int = DEFAULT_PAGE_SIZE) -> MessagePage:
        """One page of a conversation's messages, in order."""
        return cast(MessagePage, self._http.request(
            "GET", f"/api/v1/conversations/{_segment(conversation_id)}/messages",
            query={"page": page, "page_size": page_size}).json())

    def iterate_messages(self, conversation_id: str, *, page_size: int = DEFAULT_PAGE_SIZE) -> Iterator[Message]:
        """Every message of a conversation, in order, fetched a page at a time as you go."""
        page = 1
        while True:
            result = self.messages(conversation_id, page=page, page_size=page_size)
            yield from result["results"]
            if not result["results"] or page * result["page_size"] >= result["total"]:
                return
            page += 1

    def append(self, conversation_id: str, messages: Sequence[MessageInput]) -> AppendResult:
        """Adds messages at the end (at least one); answers the new counts and the stored messages."""
        return cast(AppendResult, self._http.request(
            "POST", f"/api/v1/conversations/{_segment(conversation_id)}/messages",
            json_body={"messages": list(messages)}).json())

    def relabel(self, conversation_id: str, label: str, folder: str) -> None:
        """Sets label and folder together (``PUT .../label``)."""
        self._put(conversation_id, "label", {"label": label, "folder": folder})

    def move(self, conversation_id: str, folder: str) -> None:
        """Moves to another folder (``PUT .../folder``)."""
        self._put(conversation_id, "folder", {"folder": folder})

    def set_importance(self, conversation_id: str, importance_score: int) -> None:
        """Sets importance, 1 to 10 (``PUT .../importance``)."""
        self._put(conversation_id, "importance", {"importance_score": importance_score})

    def pin(self, conversation_id: str) -> None:
        """Pins: importance becomes 10; favoured in context and search, never suggested for pruning."""
        self._put(conversation_id, "pin")

    def archive(self, conversation_id: str) -> None:
        """Status becomes ``archived``."""
        self._put(conversation_id, "archive")

    def unarchive(self, conversation_id: str) -> None:
        """Status becomes ``active`` again."""
        self._put(conversation_id, "unarchive")

    def delete(self, conversation_id: str) -> None:
        """Removes the conversation with its messages and embeddings, irreversibly."""
        self._http.request("DELETE", f"/api/v1/conversations/{_segment(conversation_id)}")

    def count(self, *, label: Optional[str] = None, folder: Optional[str] = None) -> Count:
        """All conversations, those with a label, or those in a folder subtree (not label and folder together)."""
        return cast(Count, self._http.request("GET", "/api/v1/conversations/count",
                                              query={"label": label, "folder": folder}).json())

    def folders(self) -> List[Folder]:
        """The folder tree with counts."""
        return cast(List[Folder], self._http.request("GET", "/api/v1/folders").json()["folders"])

    def _put(self, conversation_id: str, action: str, body: Any = NO_BODY) -> None:
        self._http.request("PUT", f"/api/v1/conversations/{_segment(conversation_id)}/{action}", json_body=body)


class Search:
    """Searching messages: by meaning, by words, or both (``/api/v1/query``), and full text (``/api/v1/search/fts``).

    Filters are given as a ``filters`` dict, as keywords (``folder=``, ``label=``, ``importance_min=``,
    ``importance_max=``, ``date_from=``, ``date_to=``, ``archived=``), or both (keywords win).
    """

    def __init__(self, transport: Transport) -> None:
        self._http = transport

    def query(
        self,
        query: str,
        *,
        limit: int = 10,
        offset: int = 0,
        mode: Optional[str] = None,
        filters: Optional[SearchFilters] = None,
        folder: Optional[str] = None,
        label: Optional[str] = None,
        importance_min: Optional[int] = None,
        importance_max: Optional[int] = None,
        date_from: Optional[str] = None,
        date_to: Optional[str] = None,
        archived: Optional[bool] = None,
    ) -> QueryResult:
        """Ranked hits, best first; ``mode`` is hybrid (the server's default), semantic or keyword."""
        merged = _filters(filters, {
            "folder": folder, "label": label, "importance_min": importance_min, "importance_max": importance_max,
            "date_from": date_from, "date_to": date_to, "archived": archived,
        })
        body = _without_none({"query": query, "limit": limit, "offset": offset, "mode": mode, "filters": merged})
        return cast(QueryResult, self._http.request("POST", "/api/v1/query", json_body=body).json())

    def iterate(
        self,
        query: str,
        *,
        page_size: int = DEFAULT_PAGE_SIZE,
        mode: Optional[str] = None,
        filters: Optional[SearchFilters] = None,
        folder: Optional[str] = None,
        label: Optional[str] = None,
        importance_min: Optional[int] = None,
        importance_max: Optional[int] = None,
        date_from: Optional[str] = None,
        date_to: Optional[str] = None,
        archived: Optional[bool] = None,
    ) -> Iterator[SearchHit]:
        """Every ranked hit (at most the server's max_query_results, 1000), fetched ``page_size`` at a time."""
        offset = 0
        while True:
            result = self.query(query, limit=page_size, offset=offset, mode=mode, filters=filters, folder=folder,
                                label=label, importance_min=importance_min, importance_max=importance_max,
                                date_from=date_from, date_to=date_to, archived=archived)
            yield from result["results"]
            if len(result["results"]) < page_size or offset + page_size >= result["total"]:
                return
            offset += page_size

    def full_text(
        self,
        query: str,
        *,
        limit: int = 10,
        offset: int = 0,
        filters: Optional[SearchFilters] = None,
        folder: Optional[str] = None,
        label: Optional[str] = None,
        importance_min: Optional[int] = None,
        importance_max: Optional[int] = None,
        date_from: Optional[str] = None,
        date_to: Optional[str] = None,
        archived: Optional[bool] = None,
    ) -> FullTextResult:
        """Full-text search: words, "exact phrases", prefix*, AND, OR, NOT, parentheses."""
        merged = _filters(filters, {
            "folder": folder, "label": label, "importance_min": importance_min, "importance_max": importance_max,
            "date_from": date_from, "date_to": date_to, "archived": archived,
        })
        body = _without_none({"query": query, "limit": limit, "offset": offset, "filters": merged})
        return cast(FullTextResult, self._http.request("POST", "/api/v1/search/fts", json_body=body).json())


class Context:
    """Context for an LLM prompt (``/api/v1/context/assemble``)."""

    def __init__(self, transport: Transport) -> None:
        self._http = transport

    def assemble(
        self,
        query: str,
        *,
        context_budget: Optional[int] = None,
        preferred_labels: Optional[Sequence[str]] = None,
        excluded_folders: Optional[Sequence[str]] = None,
        ranking: Optional[str] = None,
        format: Optional[str] = None,
        max_tokens: Optional[int] = None,
        include_metadata: Optional[bool] = None,
    ) -> Union[List[ContextMessage], ContextText]:
        """Ranked messages packed into the token budget (default 4000, 15% kept free for a system prompt).

        ``format="messages"`` (the default) answers a list of messages with citation metadata;
        ``format="text"`` (or giving ``max_tokens``) one dict with the ``context`` string, ``token_count`` and
        ``sources``. Use :meth:`messages` or :meth:`text` for a return type that says which.
        """
        body = _without_none({
            "query": query, "context_budget": context_budget,
            "preferred_labels": list(preferred_labels) if preferred_labels is not None else None,
            "excluded_folders": list(excluded_folders) if excluded_folders is not None else None,
            "ranking": ranking, "format": format, "max_tokens": max_tokens, "include_metadata": include_metadata,
        })
        return cast(Union[List[ContextMessage], ContextText],
                    self._http.request("POST", "/api/v1/context/assemble", json_body=body).json())

    def messages(self, query: str, *, context_budget: Optional[int] = None,
                 preferred_labels: Optional[Sequence[str]] = None, excluded_folders: Optional[Sequence[str]] = None,
                 ranking: Optional[str] = None) -> List[ContextMessage]:
        """:meth:`assemble` with ``format="messages"``."""
        return cast(List[ContextMessage], self.assemble(
            query, context_budget=context_budget, preferred_labels=preferred_labels,
            excluded_folders=excluded_folders, ranking=ranking, format="messages"))

    def text(self, query: str, *, context_budget: Optional[int] = None,
             preferred_labels: Optional[Sequence[str]] = None, excluded_folders: Optional[Sequence[str]] = None,
             ranking: Optional[str] = None, include_metadata: Optional[bool] = None) -> ContextText:
        """:meth:`assemble` with ``format="text"``: one string ready for a prompt."""
        return cast(ContextText, self.assemble(
            query, context_budget=context_budget, preferred_labels=preferred_labels,
            excluded_folders=excluded_folders, ranking=ranking, format="text", include_metadata=include_metadata))


class Summaries:
    """Hierarchical summaries (``/api/v1/summarize``)."""

    def __init__(self, transport: Transport) -> None:
        self._http = transport

    def summarize(self, conversation_id: str, level: str = "daily", *, refresh: Optional[bool] = None) -> Summary:
        """The ``daily``, ``weekly`` or ``monthly`` summary of a conversation (a stored one is reused)."""
        body = _without_none({"conversation_id": conversation_id, "level": level, "refresh": refresh})
        return cast(Summary, self._http.request("POST", "/api/v1/summarize", json_body=body).json())


class Prune:
    """Suggestions of idle conversations to archive, and archiving them (``/api/v1/prune/*``)."""

    def __init__(self, transport: Transport) -> None:
        self._http = transport

    def dry_run(self, *, threshold_days: Optional[int] = None, importance_threshold: Optional[float] = None,
                limit: Optional[int] = None) -> DryRun:
        """Suggestions (archive first, then keep); changes nothing. Defaults: 30 days, importance 5.0."""
        body = _without_none({"threshold_days": threshold_days, "importance_threshold": importance_threshold,
                              "limit": limit})
        return cast(DryRun, self._http.request("POST", "/api/v1/prune/dry-run", json_body=body).json())

    def execute(self, conversation_ids: Sequence[str]) -> None:
        """Archives the listed conversations (all or none); nothing is deleted."""
        self._http.request("POST", "/api/v1/prune/execute", json_body={"conversation_ids": list(conversation_ids)})


class Labels:
    """Label suggestions (``/api/v1/labels/suggest``)."""

    def __init__(self, transport: Transport) -> None:
        self._http = transport

    def suggest(self, conversation_id: str, *, limit: Optional[int] = None) -> LabelSuggestions:
        """Suggested labels for a conversation, highest confidence first."""
        body = _without_none({"conversation_id": conversation_id, "limit": limit})
        return cast(LabelSuggestions, self._http.request("POST", "/api/v1/labels/suggest", json_body=body).json())


class Embeddings:
    """The embedding pipeline (``/api/v1/embeddings/status``, ``/api/v1/rebuild-embeddings``)."""

    def __init__(self, transport: Transport) -> None:
        self._http = transport

    def status(self) -> JsonObject:
        """Pending, done and failed counts, the model, and ``searchable`` (every stored message is found)."""
        return cast(JsonObject, self._http.request("GET", "/api/v1/embeddings/status").json())

    def rebuild(self) -> None:
        """Starts regenerating every embedding in the background (admin; 202)."""
        self._http.request("POST", "/api/v1/rebuild-embeddings")


class Tools:
    """The MCP tools in their REST form (``/mcp/tools``), called by name."""

    def __init__(self, transport: Transport) -> None:
        self._http = transport

    def list(self) -> ToolListing:
        """Every tool with its input and output JSON schemas."""
        return cast(ToolListing, self._http.request("GET", "/mcp/tools").json())

    def call(self, tool: str, params: Optional[Mapping[str, Any]] = None) -> ToolEnvelope:
        """Calls a tool, e.g. ``call("memory_search", {"query": "..."})``; its result is the envelope's ``data``.

        A failure envelope raises the typed error with the envelope's code and message (an unknown tool: NotFoundError).
        """
        return cast(ToolEnvelope, self._http.request("POST", f"/mcp/tools/{_segment(tool)}",
                                                     json_body=dict(params or {})).json())


class Keys:
    """API keys (admin) and the caller's own identity and tenant tokens (``/api/v1/keys``)."""

    def __init__(self, transport: Transport) -> None:
        self._http = transport

    def create(self, name: str, grants: Sequence[Grant], admin: bool = False, *,
               requests_per_second: Optional[float] = None, burst: Optional[int] = None) -> CreatedKey:
        """A new key with folder grants (admin only); its secret, ``key``, is shown this once."""
        body = _without_none({"name": name, "grants": [dict(grant) for grant in grants], "admin": admin,
                              "requests_per_second": requests_per_second, "burst": burst})
        return cast(CreatedKey, self._http.request("POST", "/api/v1/keys", json_body=body).json())

    def list(self) -> List[Key]:
        """Every key with its grants, last use and revocation (admin only; never a secret)."""
        return cast(List[Key], self._http.request("GET", "/api/v1/keys").json()["keys"])

    def revoke(self, key_id: str) -> None:
        """Revokes a key (admin only): it and its tokens get 401 from then on."""
        self._http.request("DELETE", f"/api/v1/keys/{_segment(key_id)}")

    def me(self) -> Me:
        """The calling key or token: id, name, grants, admin."""
        return cast(Me, self._http.request("GET", "/api/v1/keys/me").json())

    def mint_token(self, grants: Sequence[Grant], expires_in: int = 3600) -> Token:
        """A short-lived tenant token (at most a day) with grants within the caller's; use it as an API key."""
        body = {"grants": [dict(grant) for grant in grants], "expires_in": expires_in}
        return cast(Token, self._http.request("POST", "/api/v1/keys/me/tokens", json_body=body).json())


class Client:
    """A client for one memsvc service.

    ``base_url`` defaults to ``MEMSVC_BASE_URL`` (else http://127.0.0.1:8080) and ``api_key`` to ``MEMSVC_API_KEY``;
    the key is sent as ``Authorization: Bearer <key>``. ``timeout`` is in seconds per request. A 429, or a 503 the
    server shed before doing any work (code ``OVERLOADED``), is sent again after the Retry-After wait, at most
    ``max_retries`` times, unless the wait would exceed ``max_retry_wait`` seconds.

    Methods return plain dicts and lists parsed from JSON (typed with the ``TypedDict``s of :mod:`memsvc.types`),
    and raise a :class:`memsvc.MemsvcError` subclass on failure.
    """

    def __init__(
        self,
        base_url: Optional[str] = None,
        api_key: Optional[str] = None,
        timeout: float = 30,
        max_retries: int = 3,
        *,
        max_retry_wait: float = 30,
        headers: Optional[Mapping[str, str]] = None,
    ) -> None:
        resolved_url = base_url or os.environ.get("MEMSVC_BASE_URL") or DEFAULT_BASE_URL
        resolved_key = api_key if api_key is not None else os.environ.get("MEMSVC_API_KEY")
        self._http = Transport(resolved_url, resolved_key or None, timeout, max(0, max_retries), max_retry_wait,
                               headers, f"memsvc-python/{__version__}")
        self.conversations = Conversations(self._http)
        self.search = Search(self._http)
        self.context = Context(self._http)
        self.summaries = Summaries(self._http)
        self.prune = Prune(self._http)
        self.labels = Labels(self._http)
        self.embeddings = Embeddings(self._http)
        self.tools = Tools(self._http)
        self.keys = Keys(self._http)

    @property
    def base_url(self) -> str:
        return self._http.base_url

    def stats(self) -> JsonObject:
        """``GET /stats``: totals (in the caller's scope), storage size, uptime and request counters."""
        return cast(JsonObject, self._http.request("GET", "/stats").json())

    def health(self) -> Health:
        """``GET /health`` (no key needed). An unhealthy or starting service answers 503 with the same report:
        it is returned, not raised, with ``healthy`` False. Only an unreachable server raises (ConnectionError)."""
        try:
            report = self._http.request("GET", "/health").json()
            healthy = True
        except MemsvcError as error:
            if error.status != 503 or not isinstance(error.body, dict) or "checks" not in error.body:
                raise
            report, healthy = error.body, False
        return cast(Health, {"healthy": healthy, **report})

    def export_data(
        self,
        *,
        format: str = "json",
        start_date: Optional[str] = None,
        end_date: Optional[str] = None,
        folder: Optional[str] = None,
        into: Optional[BinaryIO] = None,
        chunk_size: int = 64 * 1024,
    ) -> bytes:
        """``POST /api/v1/export``: conversations with their messages as ``json``, ``jsonl`` or ``markdown``.

        Without ``into`` the export is returned as bytes; with a binary file ``into`` it is streamed there chunk
        by chunk as it arrives (for large exports) and ``b""`` is returned.
        """
        body = _without_none({"format": format, "start_date": start_date, "end_date": end_date, "folder": folder})
        answer = self._http.open("POST", "/api/v1/export", json_body=body)
        try:
            if into is None:
                return answer.read()
            while True:
                chunk = answer.read(chunk_size)
                if not chunk:
                    return b""
                into.write(chunk)
        finally:
            answer.close()

    def import_data(
        self,
        records: Union[str, bytes, Sequence[Mapping[str, Any]], Mapping[str, Any]],
        *,
        on_conflict: str = "skip",
        batch: Optional[str] = None,
        after: Optional[str] = None,
    ) -> ImportResult:
        """``POST /api/v1/import``: all records or none.

        ``records`` is a json export (a dict with ``conversations``, or a list of records) or jsonl text (str or
        bytes, one record a line). ``on_conflict`` is skip, replace or new_id. ``batch`` and ``after`` order a
        sequenced import (a batch stored only after the one it follows; 409 OUT_OF_SEQUENCE otherwise).
        """
        query: Dict[str, QueryValue] = {"on_conflict": on_conflict, "batch": batch, "after": after}
        if isinstance(records, (str, bytes)):
            data = records.encode("utf-8") if isinstance(records, str) else records
            answer = self._http.request("POST", "/api/v1/import", query=query, data=data,
                                        content_type="application/x-ndjson")
        else:
            payload: Any = dict(records) if isinstance(records, Mapping) else [dict(record) for record in records]
            answer = self._http.request("POST", "/api/v1/import", query=query, json_body=payload)
        return cast(ImportResult, answer.json())

    def request(
        self,
        method: str,
        path: str,
        *,
        json: Any = NO_BODY,
        query: Optional[Mapping[str, QueryValue]] = None,
    ) -> Any:
        """Any route, e.g. ``request("GET", "/api/v1/folders")``: the parsed JSON answer (None when empty)."""
        return self._http.request(method, path, query=query, json_body=json).json()


def _segment(value: str) -> str:
    """A path segment: ids are quoted, so a stray "/" or "?" cannot reach another route."""
    return quote(str(value), safe="")
