"""HTTP over urllib: the API key, JSON in and out, typed errors, and retries of refusals-before-work."""

import json
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
from email.message import Message
from http.client import HTTPException, HTTPResponse
from typing import Any, Callable, Dict, Mapping, Optional, Tuple, Union, cast

from .errors import ConnectionError, MemsvcError, error_from_response, parse_retry_after

QueryValue = Union[str, int, float, bool, None]

#: Without a Retry-After, a 429 is retried after base * 2**attempt seconds.
BASE_RETRY_DELAY = 0.5


class _NoBody:
    """Marks a request without a body (None is a JSON value: null)."""


NO_BODY: Any = _NoBody()


class Response:
    """A successful answer: its status, headers and (unless streamed) its body."""

    def __init__(self, status: int, headers: Message, body: bytes) -> None:
        self.status = status
        self.headers = headers
        self.body = body

    def json(self) -> Any:
        """The parsed JSON body; None for an empty one (the 200s of updates, the 204 of a revocation)."""
        if not self.body.strip():
            return None
        return json.loads(self.body.decode("utf-8"))


class Transport:
    """One client's connection settings; every call goes through :meth:`request` or :meth:`open`."""

    def __init__(
        self,
        base_url: str,
        api_key: Optional[str],
        timeout: float,
        max_retries: int,
        max_retry_wait: float,
        headers: Optional[Mapping[str, str]],
        user_agent: str,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        self.timeout = timeout
        self.max_retries = max_retries
        self.max_retry_wait = max_retry_wait
        self.headers = dict(headers or {})
        self.user_agent = user_agent
        self._sleep = sleep
        self._opener = urllib.request.build_opener()

    def url(self, path: str, query: Optional[Mapping[str, QueryValue]] = None) -> str:
        url = self.base_url + (path if path.startswith("/") else "/" + path)
        if query:
            pairs = [(name, _query_value(value)) for name, value in query.items() if value is not None]
            if pairs:
                url += "?" + urllib.parse.urlencode(pairs)
        return url

    def request(
        self,
        method: str,
        path: str,
        *,
        query: Optional[Mapping[str, QueryValue]] = None,
        json_body: Any = NO_BODY,
        data: Optional[bytes] = None,
        content_type: Optional[str] = None,
    ) -> Response:
        """Sends the request and reads the whole answer; a non-2xx answer raises its typed error."""
        answer = self.open(method, path, query=query, json_body=json_body, data=data, content_type=content_type)
        try:
            body = answer.read()
        except (OSError, HTTPException) as error:
            raise _connection_error(error, self.base_url) from error
        finally:
            answer.close()
        return Response(answer.status, answer.headers, body)

    def open(
        self,
        method: str,
        path: str,
        *,
        query: Optional[Mapping[str, QueryValue]] = None,
        json_body: Any = NO_BODY,
        data: Optional[bytes] = None,
        content_type: Optional[str] = None,
    ) -> HTTPResponse:
        """Sends the request and returns the open answer for streaming (the caller closes it).

        A 429, or a 503 with code ``OVERLOADED`` and a Retry-After (the server shed the request before doing any
        of it), is sent again after the wait Retry-After gives, at most ``max_retries`` times and never when the
        wait would exceed ``max_retry_wait``: then, and for any other failure, the typed error is raised.
        """
        body, headers = self._encode(json_body, data, content_type)
        url = self.url(path, query)
        attempt = 0
        while True:
            request = urllib.request.Request(url, data=body, method=method.upper(), headers=headers)
            try:
                return cast(HTTPResponse, self._opener.open(request, timeout=self.timeout))
            except urllib.error.HTTPError as refusal:
                status, reason, answer_headers, answer = _read_refusal(refusal)
                delay = self._retry_delay(status, answer_headers, answer, attempt)
                if delay is None:
                    raise error_from_response(status, reason, answer_headers, answer) from None
                self._sleep(delay)
                attempt += 1
            except (OSError, HTTPException) as error:  # URLError is an OSError; so are socket timeouts
                raise _connection_error(error, self.base_url) from error

    def _encode(self, json_body: Any, data: Optional[bytes], content_type: Optional[str]) -> Tuple[Optional[bytes], Dict[str, str]]:
        headers = {"Accept": "application/json", "User-Agent": self.user_agent, **self.headers}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        body: Optional[bytes] = None
        if not isinstance(json_body, _NoBody):
            body = json.dumps(json_body, ensure_ascii=False).encode("utf-8")
            headers["Content-Type"] = "application/json"
        elif data is not None:
            body = data
            headers["Content-Type"] = content_type or "application/octet-stream"
        return body, headers

    def _retry_delay(self, status: int, headers: Message, body: bytes, attempt: int) -> Optional[float]:
        """Seconds to wait before sending again, or None when the failure is to be raised."""
        if attempt >= self.max_retries or not _refused_before_work(status, headers, body):
            return None
        delay = parse_retry_after(headers.get("Retry-After"))
        if delay is None:
            delay = BASE_RETRY_DELAY * (2 ** attempt)
        return delay if delay <= self.max_retry_wait else None


def _refused_before_work(status: int, headers: Message, body: bytes) -> bool:
    """429, or a 503 shed by admission control (code OVERLOADED with Retry-After): sending again is always safe."""
    if status == 429:
        return True
    if status != 503 or headers.get("Retry-After") is None:
        return False
    try:
        parsed = json.loads(body.decode("utf-8"))
    except ValueError:
        return False
    return isinstance(parsed, dict) and parsed.get("code") == "OVERLOADED"


def _read_refusal(refusal: urllib.error.HTTPError) -> Tuple[int, str, Message, bytes]:
    try:
        body = refusal.read()
    except (OSError, HTTPException):
        body = b""
    finally:
        refusal.close()
    return refusal.code, str(refusal.reason or ""), refusal.headers, body


def _connection_error(error: BaseException, base_url: str) -> MemsvcError:
    reason = getattr(error, "reason", error)
    timed_out = isinstance(reason, socket.timeout) or isinstance(error, socket.timeout)
    if timed_out:
        return ConnectionError(f"memsvc at {base_url} did not answer in time: {reason}", "TIMEOUT")
    return ConnectionError(f"memsvc at {base_url} cannot be reached: {reason}")


def _query_value(value: QueryValue) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
