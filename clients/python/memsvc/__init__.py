"""memsvc: a Python client for the memsvc conversation-memory service (standard library only).

    from memsvc import Client

    client = Client()  # MEMSVC_BASE_URL and MEMSVC_API_KEY
    created = client.conversations.create("db migration", folder="/work", messages=[{"role": "user", "content": "..."}])
    hits = client.search.query("why did the migration fail?", limit=5)
"""

from .client import DEFAULT_BASE_URL, Client, __version__
from .errors import (
    AuthenticationError,
    ConflictError,
    ConnectionError,
    MemsvcError,
    NotFoundError,
    PermissionDeniedError,
    RateLimitError,
    ServiceUnavailableError,
    ValidationError,
)

__all__ = [
    "Client",
    "DEFAULT_BASE_URL",
    "MemsvcError",
    "ValidationError",
    "AuthenticationError",
    "PermissionDeniedError",
    "NotFoundError",
    "ConflictError",
    "RateLimitError",
    "ServiceUnavailableError",
    "ConnectionError",
    "__version__",
]
