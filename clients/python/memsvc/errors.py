"""Typed errors: one class per kind of failure, each carrying the HTTP status and memsvc's error code."""

import json
import time
from email.message import Message
from email.utils import parsedate_to_datetime
from typing import Any, Optional, Type

__all__ = [
    "MemsvcError",
    "ValidationError",
    "AuthenticationError",
    "PermissionDeniedError",
    "NotFoundError",
    "ConflictError",
    "RateLimitError",
    "ServiceUnavailableError",
    "ConnectionError",
]


class MemsvcError(Exception):
    """Every failed call.

    ``status`` is the HTTP status (0 when nothing answered), ``code`` memsvc's machine-readable code
    (``CONVERSATION_NOT_FOUND``, ``VALIDATION_ERROR``, ...; ``HTTP_<status>`` when the answer carried none),
    ``message`` the server's message for people, ``retry_after`` the wait in seconds the server asked for
    (429 and 503), if it named one, and ``body`` the answer's parsed JSON body (None when there was none).
    """

    def __init__(self, status: int, code: str, message: str, retry_after: Optional[float] = None,
                 body: Any = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.retry_after = retry_after
        self.body = body

    def __str__(self) -> str:
        return f"{self.message} (status {self.status}, code {self.code})"

    def __repr__(self) -> str:
        return f"{type(self).__name__}(status={self.status!r}, code={self.code!r}, message={self.message!r})"


class ValidationError(MemsvcError):
    """400, 413, 415 or 422: the request was refused as it is; the message names the field."""


class AuthenticationError(MemsvcError):
    """401: no API key, a wrong one, a revoked one or an expired token."""


class PermissionDeniedError(MemsvcError):
    """403: the key is valid but its grants do not cover this (a write outside its write grants, an admin route)."""


class NotFoundError(MemsvcError):
    """404: an unknown conversation (or one outside the key's grants), key or route."""


class ConflictError(MemsvcError):
    """409: the request contradicts what is stored (a key name in use, an import batch out of sequence)."""


class RateLimitError(MemsvcError):
    """429 once the client's retries ran out (or the server asked for a longer wait than the client allows)."""


class ServiceUnavailableError(MemsvcError):
    """503: the service is starting, overloaded (after the retries), or an upstream it needs is down."""


class ConnectionError(ServiceUnavailableError):  # noqa: A001 - the name the package promises; builtins' stays reachable
    """Nothing answered: the server is unreachable, refused the connection, or did not answer within the timeout.

    ``status`` is 0 and ``code`` is ``NETWORK`` (or ``TIMEOUT``); ``__cause__`` is the underlying ``URLError`` or
    ``OSError``. A subclass of ``ServiceUnavailableError``, as the typed TypeScript client treats it.
    """

    def __init__(self, message: str, code: str = "NETWORK") -> None:
        super().__init__(0, code, message)


_BY_STATUS = {
    400: ValidationError,
    401: AuthenticationError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    413: ValidationError,
    415: ValidationError,
    422: ValidationError,
    429: RateLimitError,
    503: ServiceUnavailableError,
}


def parse_retry_after(value: Optional[str], now: Optional[float] = None) -> Optional[float]:
    """Retry-After (delta-seconds or an HTTP date) as seconds from now; None when absent or unreadable."""
    if value is None or value.strip() == "":
        return None
    try:
        return max(0.0, float(value.strip()))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when is None:
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


def error_from_response(status: int, reason: str, headers: Message, body: bytes) -> MemsvcError:
    """The typed error for a non-2xx answer with memsvc's ``{"error", "code"}`` body (or a tool's failure envelope)."""
    parsed: Any = None
    text = body.decode("utf-8", errors="replace")
    try:
        parsed = json.loads(text) if text else None
    except ValueError:
        parsed = None
    message: Optional[str] = None
    code: Optional[str] = None
    if isinstance(parsed, dict):
        error = parsed.get("error")
        if isinstance(error, dict):  # a tool's envelope: {success: false, data: null, error: {code, message}}
            message = error.get("message") if isinstance(error.get("message"), str) else None
            code = error.get("code") if isinstance(error.get("code"), str) else None
        else:
            message = error if isinstance(error, str) else None
            code = parsed.get("code") if isinstance(parsed.get("code"), str) else None
    if message is None:
        message = text.strip() if text.strip() and parsed is None else f"{status} {reason}".strip()
    error_class: Type[MemsvcError] = _BY_STATUS.get(status, MemsvcError)
    retry_after = parse_retry_after(headers.get("Retry-After"))
    return error_class(status, code if code is not None else f"HTTP_{status}", message, retry_after, parsed)

