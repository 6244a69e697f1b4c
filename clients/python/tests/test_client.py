"""Tests of the memsvc Python client.

Most talk to a real service: set MEMSVC_BASE_URL and MEMSVC_API_KEY (an admin key) to run them, e.g.

    MEMSVC_BASE_URL=http://127.0.0.1:8080 MEMSVC_API_KEY=... PYTHONPATH=clients/python \
        python3 -m unittest discover -s clients/python/tests -v

Without them those tests are skipped. Retries, timeouts and an unreachable server are tested against a tiny local
http.server and need no service. Every test writes under its own folder (/pyclient/<random>), so the suite can run
against a service holding other data, and again.
"""

import io
import json
import os
import socket
import subprocess
import sys
import threading
import time
import unittest
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Callable, Dict, List, Tuple
from unittest import mock

from memsvc import (
    AuthenticationError, Client, ConflictError, ConnectionError, MemsvcError, NotFoundError, PermissionDeniedError,
    RateLimitError, ServiceUnavailableError, ValidationError,
)
from memsvc.types import MessageInput

BASE_URL = os.environ.get("MEMSVC_BASE_URL", "")
API_KEY = os.environ.get("MEMSVC_API_KEY", "")
HERE = Path(__file__).resolve().parent
PACKAGE_ROOT = HERE.parent
QUICKSTART = PACKAGE_ROOT / "examples" / "quickstart.py"
DOCS = PACKAGE_ROOT.parent.parent / "docs" / "integrations.md"
NIL_ID = "00000000-0000-4000-8000-000000000000"

requires_service = unittest.skipUnless(
    BASE_URL and API_KEY,
    "MEMSVC_BASE_URL and MEMSVC_API_KEY are not set: start memsvc and set both (an admin key) to run this test",
)


def new_folder(name: str) -> str:
    return f"/pyclient/{name}-{uuid.uuid4().hex[:10]}"


def wait_until(what: str, check: Callable[[], bool], timeout: float = 60.0, interval: float = 0.05) -> bool:
    """True once check() is; False after timeout."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(interval)
    return False


class ServiceTestCase(unittest.TestCase):
    client: Client

    @classmethod
    def setUpClass(cls) -> None:
        cls.client = Client(BASE_URL, API_KEY, timeout=30)

    def create(self, folder: str, label: str = "test", contents: Tuple[str, ...] = ("hello",), **extra: Any) -> str:
        messages: List[MessageInput] = [
            {"role": "user" if i % 2 == 0 else "assistant", "content": c} for i, c in enumerate(contents)]
        created = self.client.conversations.create(label, folder=folder, messages=messages, **extra)
        self.addCleanup(self._delete_quietly, created["id"])
        return created["id"]

    def _delete_quietly(self, conversation_id: str) -> None:
        try:
            self.client.conversations.delete(conversation_id)
        except NotFoundError:
            pass


@requires_service
class ConversationTests(ServiceTestCase):
    def test_create_get_and_append(self) -> None:
        folder = new_folder("crud")
        created = self.client.conversations.create(
            "parquet nulls", folder=folder, importance_score=7,
            messages=[{"role": "user", "name": "Ana", "content": "The parquet writer drops null columns"}],
        )
        self.addCleanup(self._delete_quietly, created["id"])
        self.assertEqual(created["conversation_id"], created["id"])
        self.assertEqual((created["label"], created["folder"], created["status"]), ("parquet nulls", folder, "active"))
        self.assertEqual((created["message_count"], created["importance_score"]), (1, 7))

        appended = self.client.conversations.append(created["id"], [
            {"role": "assistant", "content": "Set the schema explicitly", "metadata": {"source": "test"}},
        ])
        self.assertEqual(appended["message_count"], 2)
        self.assertEqual(appended["messages"][0]["metadata"], {"source": "test"})

        read = self.client.conversations.get(created["id"])
        self.assertEqual(read["message_count"], 2)
        self.assertNotIn("messages", read)
        full = self.client.conversations.get(created["id"], include_messages=True)
        self.assertEqual([(m["name"], m["content"]) for m in full["messages"]],
                         [("Ana", "The parquet writer drops null columns"), (None, "Set the schema explicitly")])
        page = self.client.conversations.messages(created["id"], page=2, page_size=1)
        self.assertEqual((page["total"], page["page"], page["results"][0]["role"]), (2, 2, "assistant"))

    def test_create_without_messages_then_append(self) -> None:
        conversation_id = self.client.conversations.create("empty at first", folder=new_folder("empty"))["id"]
        self.addCleanup(self._delete_quietly, conversation_id)
        self.assertEqual(self.client.conversations.get(conversation_id)["message_count"], 0)
        self.client.conversations.append(conversation_id, [{"role": "user", "content": "now one"}])
        self.assertEqual(self.client.conversations.get(conversation_id)["message_count"], 1)

    def test_list_filters_and_sort(self) -> None:
        folder = new_folder("list")
        low = self.create(folder + "/a", label="low", importance_score=2)
        high = self.create(folder + "/b", label="high", importance_score=9)
        archived = self.create(folder + "/a", label="old", importance_score=5)
        self.client.conversations.archive(archived)

        page = self.client.conversations.list(folder=folder, sort="importance_score", order="desc")
        self.assertEqual([r["conversation_id"] for r in page["results"]], [high, archived, low])
        self.assertEqual((page["total"], page["page"]), (3, 1))
        item = page["results"][0]
        self.assertEqual((item["label"], item["content"], item["folder"]), ("high", "high", folder + "/b"))
        self.assertEqual(item["message_id"], "00000000-0000-0000-0000-000000000000")
        self.assertEqual(item["metadata"]["importance_score"], 9)

        self.assertEqual([r["conversation_id"] for r in self.client.conversations.list(folder=folder + "/a")["results"]]
                         .count(low), 1)
        active = self.client.conversations.list(folder=folder, archived=False)
        self.assertEqual({r["conversation_id"] for r in active["results"]}, {low, high})
        only_archived = self.client.conversations.list(folder=folder, archived=True)
        self.assertEqual([r["conversation_id"] for r in only_archived["results"]], [archived])
        by_label = self.client.conversations.list(folder=folder, label="low")
        self.assertEqual([r["conversation_id"] for r in by_label["results"]], [low])
        self.assertEqual(self.client.conversations.count(folder=folder)["count"], 3)

    def test_iterate_streams_every_page_lazily(self) -> None:
        folder = new_folder("paged")
        ids = [self.create(folder, label=f"paged {i}") for i in range(5)]
        pages: List[int] = []
        real_list = self.client.conversations.list

        def counting_list(**kwargs: Any) -> Any:
            pages.append(kwargs["page"])
            return real_list(**kwargs)

        with mock.patch.object(self.client.conversations, "list", side_effect=counting_list):
            iterator = self.client.conversations.iterate(folder=folder, page_size=2)
            self.assertEqual(pages, [], "nothing is fetched before the first item is asked for")
            first = next(iterator)
            self.assertEqual(pages, [1])
            next(iterator)
            self.assertEqual(pages, [1], "the second item comes from the first page")
            rest = list(iterator)
        self.assertEqual(pages, [1, 2, 3])
        self.assertEqual(len(rest), 3)
        listed = [item["conversation_id"] for item in self.client.conversations.iterate(folder=folder, page_size=2)]
        self.assertEqual(sorted(listed), sorted(ids))
        self.assertIn(first["conversation_id"], ids)

        contents = tuple(f"message number {i}" for i in range(7))
        conversation_id = self.create(folder, label="many messages", contents=contents)
        walked = [m["content"] for m in self.client.conversations.iterate_messages(conversation_id, page_size=3)]
        self.assertEqual(walked, list(contents))

    def test_updates_pin_archive_and_delete(self) -> None:
        folder = new_folder("updates")
        conversation_id = self.create(folder)
        self.client.conversations.relabel(conversation_id, "renamed", folder + "/x")
        self.client.conversations.move(conversation_id, folder + "/y")
        self.client.conversations.set_importance(conversation_id, 3)
        read = self.client.conversations.get(conversation_id)
        self.assertEqual((read["label"], read["folder"], read["importance_score"]), ("renamed", folder + "/y", 3))
        self.client.conversations.pin(conversation_id)
        read = self.client.conversations.get(conversation_id)
        self.assertEqual((read["importance_score"], read["pinned"]), (10, True))
        self.client.conversations.archive(conversation_id)
        self.assertEqual(self.client.conversations.get(conversation_id)["status"], "archived")
        self.client.conversations.unarchive(conversation_id)
        self.assertEqual(self.client.conversations.get(conversation_id)["status"], "active")
        folders = {f["folder"]: f for f in self.client.conversations.folders()}
        self.assertEqual(folders[folder + "/y"]["count"], 1)
        self.client.conversations.delete(conversation_id)
        with self.assertRaises(NotFoundError):
            self.client.conversations.get(conversation_id)


@requires_service
class SearchAndContextTests(ServiceTestCase):
    def test_keyword_search_with_filters_and_paging(self) -> None:
        folder = new_folder("search")
        target = self.create(folder + "/a", label="zebra notes", contents=("zebra crossings are striped",) * 3)
        self.create(folder + "/b", label="other zebra", contents=("a zebra in another folder",))

        found = self.client.search.query("zebra", mode="keyword", folder=folder + "/a")
        self.assertEqual(found["mode"], "keyword")
        self.assertEqual({hit["conversation_id"] for hit in found["results"]}, {target})
        hit = found["results"][0]
        self.assertEqual((hit["label"], hit["folder"]), ("zebra notes", folder + "/a"))
        self.assertTrue(0 <= hit["score"] <= 1)
        same = self.client.search.query("zebra", mode="keyword", filters={"folder": folder + "/a"})
        self.assertEqual(len(same["results"]), len(found["results"]))

        everything = self.client.search.query("zebra", mode="keyword", folder=folder, limit=10)
        self.assertEqual(everything["total"], 4)
        paged = list(self.client.search.iterate("zebra", mode="keyword", folder=folder, page_size=3))
        self.assertEqual(sorted(h["message_id"] for h in paged), sorted(h["message_id"] for h in everything["results"]))

        text = self.client.search.full_text("zebra AND striped", folder=folder)
        self.assertEqual(text["total"], 3)
        self.assertTrue(all(h["conversation_id"] == target for h in text["results"]))

    def test_hybrid_and_semantic_search(self) -> None:
        folder = new_folder("semantic")
        target = self.create(folder, label="deploys", contents=("The deployment pipeline failed on the staging cluster",))
        hybrid = self.client.search.query("staging deployment pipeline", folder=folder)
        self.assertEqual(hybrid["mode"], "hybrid")
        self.assertEqual(hybrid["results"][0]["conversation_id"], target)
        if not wait_until("embeddings", lambda: bool(self.client.embeddings.status()["searchable"]), timeout=60):
            self.skipTest("embeddings did not become searchable within 60 s (is the LLM bridge running?)")
        semantic = self.client.search.query("staging deployment pipeline", mode="semantic", folder=folder)
        self.assertEqual(semantic["mode"], "semantic")
        self.assertEqual(semantic["results"][0]["conversation_id"], target)

    def test_context_assembly_in_both_formats(self) -> None:
        folder = new_folder("context")
        conversation_id = self.create(folder, label="kafka", contents=("Kafka consumer lag spiked after the rebalance",
                                                                        "Increase max.poll.interval.ms"))
        self.assertIsInstance(self.client.context.assemble("kafka consumer lag"), list, "messages by default")
        messages = self.client.context.messages("kafka consumer lag", context_budget=1000, preferred_labels=["kafka"])
        ours = [m for m in messages if m["conversation_id"] == conversation_id]
        self.assertTrue(ours, "the conversation's messages are in the context")
        self.assertEqual(ours[0]["metadata"]["folder"], folder)
        self.assertTrue(0 <= ours[0]["metadata"]["relevance_score"] <= 1)

        text = self.client.context.text("kafka consumer lag", context_budget=1000)
        self.assertIn("Kafka consumer lag", text["context"])
        self.assertGreater(text["token_count"], 0)
        self.assertIn(conversation_id, text["conversation_ids"])
        excluded = self.client.context.messages("kafka consumer lag", excluded_folders=[folder])
        self.assertFalse([m for m in excluded if m["conversation_id"] == conversation_id])


@requires_service
class OrchestrationTests(ServiceTestCase):
    def test_summary(self) -> None:
        conversation_id = self.create(new_folder("summary"), contents=("We chose Postgres for the ledger",))
        try:
            summary = self.client.summaries.summarize(conversation_id, "daily")
        except ServiceUnavailableError as error:
            self.skipTest(f"summaries need the LLM bridge: {error}")
        self.assertEqual((summary["conversation_id"], summary["level"]), (conversation_id, "daily"))
        self.assertIsInstance(summary["summary"], str)

    def test_label_suggestions(self) -> None:
        conversation_id = self.create(new_folder("labels"), contents=("Terraform state lock errors in CI",) * 2)
        suggested = self.client.labels.suggest(conversation_id, limit=3)
        self.assertEqual(suggested["conversation_id"], conversation_id)
        self.assertLessEqual(len(suggested["suggestions"]), 3)
        for suggestion in suggested["suggestions"]:
            self.assertTrue(0 <= suggestion["confidence"] <= 1)

    def test_prune_dry_run_then_execute(self) -> None:
        conversation_id = self.create(new_folder("prune"))
        dry = self.client.prune.dry_run(threshold_days=0, importance_threshold=10)
        self.assertIn(conversation_id, [s["conversation_id"] for s in dry["suggestions"]])
        self.assertEqual(self.client.conversations.get(conversation_id)["status"], "active", "a dry run changes nothing")
        self.client.prune.execute([conversation_id])
        self.assertEqual(self.client.conversations.get(conversation_id)["status"], "archived")

    def test_export_then_import(self) -> None:
        folder = new_folder("export")
        conversation_id = self.create(folder, label="exported", contents=("first", "second"))
        exported = json.loads(self.client.export_data(folder=folder))
        self.assertEqual([c["id"] for c in exported["conversations"]], [conversation_id])

        streamed = io.BytesIO()
        self.assertEqual(self.client.export_data(folder=folder, format="jsonl", into=streamed, chunk_size=16), b"")
        lines = streamed.getvalue().decode().splitlines()
        self.assertEqual(json.loads(lines[0])["id"], conversation_id)

        skipped = self.client.import_data(exported)
        self.assertEqual((skipped["imported"], skipped["skipped"]), (0, 1))
        renamed = self.client.import_data("\n".join(lines) + "\n", on_conflict="new_id")
        self.assertEqual((renamed["imported"], renamed["messages"]), (1, 2))
        new_id = renamed["renamed"][0]["to"]
        self.addCleanup(self._delete_quietly, new_id)
        self.assertEqual(self.client.conversations.get(new_id)["label"], "exported")

    def test_stats_and_health(self) -> None:
        self.create(new_folder("stats"))
        stats = self.client.stats()
        self.assertGreaterEqual(stats["total_conversations"], 1)
        health = Client(BASE_URL, api_key="").health()  # no key needed
        self.assertIn(health["status"], ("healthy", "unhealthy"))
        self.assertEqual(health["healthy"], health["status"] == "healthy")
        self.assertIn("database", health["checks"])
        self.assertIn("pending", self.client.embeddings.status())


@requires_service
class ToolTests(ServiceTestCase):
    def test_list_and_call_tools_by_name(self) -> None:
        listing = self.client.tools.list()
        names = {tool["name"] for tool in listing["tools"]}
        self.assertTrue({"memory_store", "memory_search", "memory_get_context"} <= names, names)

        folder = new_folder("tools")
        stored = self.client.tools.call("memory_store", {
            "label": "tool call", "folder": folder, "messages": [{"role": "user", "content": "narwhal tusks are teeth"}],
        })
        self.assertTrue(stored["success"])
        self.assertIsNone(stored["error"])
        conversation_id = stored["data"]["conversation_id"]
        self.addCleanup(self._delete_quietly, conversation_id)

        found = self.client.tools.call("memory_search", {"query": "narwhal", "filters": {"folder": folder}})
        data = found["data"]
        self.assertEqual(data["query"], "narwhal")
        self.assertEqual([hit["conversation_id"] for hit in data["results"]], [conversation_id])
        metadata = self.client.tools.call("memory_get_context", {"conversation_id": conversation_id})
        self.assertEqual(metadata["data"]["label"], "tool call")

    def test_tool_failures_are_typed_errors(self) -> None:
        with self.assertRaises(NotFoundError) as missing:
            self.client.tools.call("memory_get_context", {"conversation_id": NIL_ID})
        self.assertEqual(missing.exception.code, "CONVERSATION_NOT_FOUND")
        self.assertEqual(missing.exception.message, f"Conversation not found: {NIL_ID}")
        with self.assertRaises(ValidationError) as invalid:
            self.client.tools.call("memory_store", {"label": "x"})
        self.assertEqual((invalid.exception.status, invalid.exception.code), (400, "VALIDATION_ERROR"))
        self.assertEqual(invalid.exception.message, "messages is required")
        with self.assertRaises(NotFoundError):
            self.client.tools.call("no_such_tool", {})


@requires_service
class ServiceErrorTests(ServiceTestCase):
    def test_not_found_carries_the_code(self) -> None:
        with self.assertRaises(NotFoundError) as raised:
            self.client.conversations.get(NIL_ID)
        error = raised.exception
        self.assertIsInstance(error, MemsvcError)
        self.assertEqual((error.status, error.code), (404, "CONVERSATION_NOT_FOUND"))
        self.assertEqual(error.message, f"Conversation not found: {NIL_ID}")
        self.assertEqual(error.body, {"error": error.message, "code": "CONVERSATION_NOT_FOUND"})
        with self.assertRaises(NotFoundError):
            self.client.conversations.append(NIL_ID, [{"role": "user", "content": "x"}])

    def test_wrong_key_is_an_authentication_error(self) -> None:
        with self.assertRaises(AuthenticationError) as raised:
            Client(BASE_URL, api_key="not-the-key").conversations.list()
        self.assertEqual((raised.exception.status, raised.exception.code), (401, "UNAUTHORIZED"))
        with self.assertRaises(AuthenticationError):
            Client(BASE_URL, api_key="").stats()

    def test_bad_input_is_a_validation_error_naming_the_field(self) -> None:
        with self.assertRaises(ValidationError) as empty_label:
            self.client.conversations.create("", messages=[])
        self.assertEqual(empty_label.exception.status, 400)
        self.assertIn("label", empty_label.exception.message)
        with self.assertRaises(ValidationError) as bad_role:
            self.client.conversations.create("x", messages=[{"role": "robot", "content": "hi"}])
        self.assertIn("messages[0].role", bad_role.exception.message)
        with self.assertRaises(ValidationError):
            self.client.search.query("x", limit=0)
        with self.assertRaises(ValidationError) as both:
            self.client.conversations.count(label="a", folder="/b")
        self.assertEqual(both.exception.code, "INVALID_FILTER")
        with self.assertRaises(ValidationError) as bad_json:
            self.client.import_data("{not json")
        self.assertEqual(bad_json.exception.code, "INVALID_JSON")


@requires_service
class KeyTests(ServiceTestCase):
    """Scoped API keys and tenant tokens (docs/tenancy.md); the admin key is MEMSVC_API_KEY."""

    tenancy_missing = False

    @classmethod
    def setUpClass(cls) -> None:
        super().setUpClass()
        try:
            cls.client.keys.me()
        except NotFoundError:
            cls.tenancy_missing = True

    def setUp(self) -> None:
        if self.tenancy_missing:
            self.skipTest("tenancy endpoints not present")

    def new_key(self, folder: str, access: str = "write") -> Dict[str, Any]:
        created = self.client.keys.create(f"pyclient-{uuid.uuid4().hex[:10]}", [{"folder": folder, "access": access}])
        self.addCleanup(self._revoke_quietly, created["id"])
        return dict(created)

    def _revoke_quietly(self, key_id: str) -> None:
        try:
            self.client.keys.revoke(key_id)
        except MemsvcError:
            pass

    def test_admin_knows_itself(self) -> None:
        me = self.client.keys.me()
        self.assertTrue(me["admin"])
        self.assertIsInstance(me["grants"], list)

    def test_scoped_key_reads_and_writes_only_within_its_grants(self) -> None:
        folder = new_folder("tenant")
        created = self.new_key(folder)
        self.assertEqual((created["admin"], created["grants"]), (False, [{"folder": folder, "access": "write"}]))
        self.assertTrue(created["key"].startswith(created["id"]))
        tenant = Client(BASE_URL, created["key"])

        me = tenant.keys.me()
        self.assertEqual((me["id"], me["name"], me["admin"]), (created["id"], created["name"], False))
        own = tenant.conversations.create("mine", folder=folder + "/notes", messages=[{"role": "user", "content": "x"}])
        self.addCleanup(self._delete_quietly, own["id"])
        with self.assertRaises(PermissionDeniedError) as outside:
            tenant.conversations.create("not mine", folder=new_folder("elsewhere"), messages=[])
        self.assertEqual((outside.exception.status, outside.exception.code), (403, "FORBIDDEN"))
        others = self.create(new_folder("others"))
        with self.assertRaises(NotFoundError):
            tenant.conversations.get(others)  # outside its grants: as if absent
        with self.assertRaises(PermissionDeniedError):
            tenant.keys.list()  # admin only
        self.assertEqual([r["conversation_id"] for r in tenant.conversations.list()["results"]], [own["id"]])

    def test_tokens_list_and_revoke(self) -> None:
        folder = new_folder("tokens")
        created = self.new_key(folder)
        tenant = Client(BASE_URL, created["key"])
        conversation_id = tenant.conversations.create("shared", folder=folder, messages=[])["id"]
        self.addCleanup(self._delete_quietly, conversation_id)

        minted = tenant.keys.mint_token([{"folder": folder, "access": "read"}], expires_in=600)
        self.assertEqual(minted["grants"], [{"folder": folder, "access": "read"}])
        self.assertTrue(minted["expires_at"])
        reader = Client(BASE_URL, minted["token"])
        self.assertEqual(reader.conversations.get(conversation_id)["label"], "shared")
        self.assertIn("token_expires_at", reader.keys.me())
        with self.assertRaises(PermissionDeniedError):
            reader.conversations.append(conversation_id, [{"role": "user", "content": "read only"}])
        with self.assertRaises(ValidationError):
            tenant.keys.mint_token([{"folder": folder, "access": "read"}], expires_in=10 ** 6)

        listed = {key["id"]: key for key in self.client.keys.list()}
        entry = listed[created["id"]]
        self.assertEqual(entry["name"], created["name"])
        self.assertIsNone(entry["revoked_at"])
        self.assertIn("last_used_at", entry)
        self.assertNotIn("key", entry)

        with self.assertRaises(ConflictError) as twin:
            self.client.keys.create(created["name"], [{"folder": folder, "access": "read"}])
        self.assertEqual(twin.exception.status, 409)

        self.client.keys.revoke(created["id"])
        self.assertTrue(wait_until("revocation", lambda: _refused(tenant) and _refused(reader), timeout=5),
                        "the revoked key and its token get 401")
        self.assertIsNotNone({k["id"]: k for k in self.client.keys.list()}[created["id"]]["revoked_at"])
        with self.assertRaises(NotFoundError):
            self.client.keys.revoke("key_0000000000000000")


def _refused(client: Client) -> bool:
    try:
        client.keys.me()
    except AuthenticationError:
        return True
    return False


@requires_service
class QuickstartTests(unittest.TestCase):
    def test_the_documented_example_runs(self) -> None:
        env = dict(os.environ, MEMSVC_BASE_URL=BASE_URL, MEMSVC_API_KEY=API_KEY,
                   PYTHONPATH=os.pathsep.join(filter(None, [str(PACKAGE_ROOT), os.environ.get("PYTHONPATH")])))
        run = subprocess.run([sys.executable, str(QUICKSTART)], env=env, capture_output=True, text=True, timeout=120)
        self.assertEqual(run.returncode, 0, f"quickstart.py failed:\n{run.stdout}\n{run.stderr}")
        self.assertIn("db migration: The migration deadlocked on the orders table", run.stdout)
        self.assertIn("404 CONVERSATION_NOT_FOUND", run.stdout)


class DocumentationTests(unittest.TestCase):
    def test_docs_show_the_tested_quickstart(self) -> None:
        if not DOCS.exists():
            self.skipTest(f"{DOCS} is not here (the package outside its repository)")
        body = QUICKSTART.read_text().split('"""', 2)[2].lstrip("\n")
        self.assertIn(body, DOCS.read_text(), "docs/integrations.md shows examples/quickstart.py as it is")


# ---- no service needed: a scripted local server --------------------------------------------------------------------

Reply = Tuple[int, Dict[str, str], Any]


class ScriptedServer:
    """An http.server answering each request with the next scripted reply, and recording what it received."""

    def __init__(self, replies: List[Reply], delay: float = 0.0) -> None:
        self.replies = list(replies)
        self.requests: List[Dict[str, Any]] = []
        self.delay = delay
        server = self

        class Handler(BaseHTTPRequestHandler):
            def _answer(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                server.requests.append({"method": self.command, "path": self.path, "headers": dict(self.headers),
                                        "body": body})
                if server.delay:
                    time.sleep(server.delay)
                status, headers, payload = server.replies.pop(0) if server.replies else (200, {}, {})
                data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = do_PUT = do_DELETE = _answer

            def log_message(self, format: str, *args: Any) -> None:  # quiet
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


OVERLOADED = {"error": "The service is busy: retry after 0 s", "code": "OVERLOADED"}
RATE_LIMITED = {"error": "Rate limit exceeded: retry after 0 s", "code": "RATE_LIMITED"}
STATS = {"total_conversations": 3}


class LocalServerTestCase(unittest.TestCase):
    def serve(self, replies: List[Reply], delay: float = 0.0) -> ScriptedServer:
        server = ScriptedServer(replies, delay)
        self.addCleanup(server.close)
        return server


class RetryTests(LocalServerTestCase):
    def test_503_overloaded_with_retry_after_is_retried(self) -> None:
        server = self.serve([(503, {"Retry-After": "0"}, OVERLOADED), (200, {}, STATS)])
        self.assertEqual(Client(server.url, "k").stats(), STATS)
        self.assertEqual(len(server.requests), 2)

    def test_429_is_retried_up_to_max_retries_then_raised(self) -> None:
        server = self.serve([(429, {"Retry-After": "0"}, RATE_LIMITED)] * 2 + [(200, {}, STATS)])
        self.assertEqual(Client(server.url, "k", max_retries=3).stats(), STATS)
        self.assertEqual(len(server.requests), 3)

        server = self.serve([(429, {"Retry-After": "0"}, RATE_LIMITED)] * 5)
        with self.assertRaises(RateLimitError) as raised:
            Client(server.url, "k", max_retries=2).stats()
        self.assertEqual((raised.exception.status, raised.exception.code, raised.exception.retry_after),
                         (429, "RATE_LIMITED", 0.0))
        self.assertEqual(len(server.requests), 3, "the first try and two retries")

    def test_a_post_body_is_sent_again_on_retry(self) -> None:
        created = {"id": "c1", "conversation_id": "c1"}
        server = self.serve([(503, {"Retry-After": "0"}, OVERLOADED), (201, {}, created)])
        answer = Client(server.url, "k").conversations.create("x", messages=[{"role": "user", "content": "hi"}])
        self.assertEqual(answer["id"], "c1")
        self.assertEqual([r["body"] for r in server.requests][0], server.requests[1]["body"])
        self.assertEqual(json.loads(server.requests[1]["body"]),
                         {"label": "x", "messages": [{"role": "user", "content": "hi"}]})

    def test_retry_after_is_honoured(self) -> None:
        server = self.serve([(429, {"Retry-After": "1"}, RATE_LIMITED), (200, {}, STATS)])
        started = time.monotonic()
        Client(server.url, "k").stats()
        self.assertGreaterEqual(time.monotonic() - started, 0.9)

    def test_a_wait_longer_than_the_cap_is_not_waited_for(self) -> None:
        server = self.serve([(429, {"Retry-After": "3600"}, RATE_LIMITED), (200, {}, STATS)])
        started = time.monotonic()
        with self.assertRaises(RateLimitError) as raised:
            Client(server.url, "k", max_retry_wait=5).stats()
        self.assertLess(time.monotonic() - started, 2)
        self.assertEqual(raised.exception.retry_after, 3600)
        self.assertEqual(len(server.requests), 1)

    def test_other_503s_and_retries_off_are_raised_at_once(self) -> None:
        down = {"error": "LLM bridge unreachable", "code": "UPSTREAM_UNAVAILABLE"}
        server = self.serve([(503, {}, down), (200, {}, STATS)])
        with self.assertRaises(ServiceUnavailableError) as raised:
            Client(server.url, "k").stats()
        self.assertEqual((raised.exception.status, raised.exception.code), (503, "UPSTREAM_UNAVAILABLE"))
        self.assertEqual(len(server.requests), 1, "a 503 not shed before work may have done some: not sent again")

        server = self.serve([(503, {"Retry-After": "0"}, OVERLOADED), (200, {}, STATS)])
        with self.assertRaises(ServiceUnavailableError) as shed:
            Client(server.url, "k", max_retries=0).stats()
        self.assertEqual((shed.exception.code, shed.exception.retry_after), ("OVERLOADED", 0.0))


class TransportTests(LocalServerTestCase):
    def test_key_and_json_are_sent(self) -> None:
        server = self.serve([(200, {}, {"results": [], "total": 0, "page": 2, "page_size": 5})])
        Client(server.url, "secret-key").conversations.list(page=2, page_size=5, folder="/a b", pinned=True)
        request = server.requests[0]
        self.assertEqual(request["headers"]["Authorization"], "Bearer secret-key")
        self.assertEqual(request["method"], "GET")
        self.assertTrue(request["path"].startswith("/api/v1/conversations?"))
        self.assertIn("folder=%2Fa+b", request["path"])
        self.assertIn("pinned=true", request["path"])
        self.assertNotIn("archived", request["path"])

    def test_base_url_and_key_default_from_the_environment(self) -> None:
        server = self.serve([(200, {}, STATS)])
        with mock.patch.dict(os.environ, {"MEMSVC_BASE_URL": server.url + "/", "MEMSVC_API_KEY": "from-env"}):
            client = Client()
        self.assertEqual(client.base_url, server.url)
        client.stats()
        self.assertEqual(server.requests[0]["headers"]["Authorization"], "Bearer from-env")
        self.assertEqual(server.requests[0]["path"], "/stats")

    def test_ids_are_quoted_into_the_path(self) -> None:
        server = self.serve([(404, {}, {"error": "Conversation not found: a/b?c", "code": "CONVERSATION_NOT_FOUND"})])
        with self.assertRaises(NotFoundError):
            Client(server.url, "k").conversations.get("a/b?c")
        self.assertEqual(server.requests[0]["path"], "/api/v1/conversations/a%2Fb%3Fc")

    def test_errors_by_status(self) -> None:
        cases = [(400, ValidationError), (401, AuthenticationError), (403, PermissionDeniedError), (404, NotFoundError),
                 (409, ConflictError), (413, ValidationError), (422, ValidationError), (500, MemsvcError)]
        for status, error_class in cases:
            server = self.serve([(status, {}, {"error": f"status {status}", "code": f"CODE_{status}"})])
            with self.assertRaises(error_class) as raised:
                Client(server.url, "k").stats()
            self.assertEqual((raised.exception.status, raised.exception.code, raised.exception.message),
                             (status, f"CODE_{status}", f"status {status}"))
        server = self.serve([(502, {}, b"<html>bad gateway</html>")])
        with self.assertRaises(MemsvcError) as raw:
            Client(server.url, "k").stats()
        self.assertEqual((raw.exception.status, raw.exception.code), (502, "HTTP_502"))

    def test_an_unhealthy_report_is_returned_not_raised(self) -> None:
        report = {"status": "unhealthy", "timestamp": "2026-01-01T00:00:00Z", "uptime_seconds": 1,
                  "checks": {"database": {"status": "error", "latency_ms": 1, "error": "locked"}}}
        server = self.serve([(503, {}, report)])
        health = Client(server.url, "k").health()
        self.assertFalse(health["healthy"])
        self.assertEqual(health["checks"]["database"]["error"], "locked")

    def test_unreachable_server_is_a_connection_error(self) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        with self.assertRaises(ConnectionError) as raised:
            Client(f"http://127.0.0.1:{port}", "k").conversations.list()
        error = raised.exception
        self.assertIsInstance(error, MemsvcError)
        self.assertIsInstance(error, ServiceUnavailableError)
        self.assertEqual((error.status, error.code), (0, "NETWORK"))
        self.assertIsNotNone(error.__cause__)

    def test_no_answer_in_time_is_a_connection_error(self) -> None:
        server = self.serve([(200, {}, STATS)], delay=1.5)
        with self.assertRaises(ConnectionError) as raised:
            Client(server.url, "k", timeout=0.3).stats()
        self.assertEqual(raised.exception.code, "TIMEOUT")


if __name__ == "__main__":
    unittest.main()
