"""Store a conversation, add to it, search it, assemble context, call a tool and handle an error.

Run with MEMSVC_BASE_URL and MEMSVC_API_KEY set:  python quickstart.py
"""
from memsvc import Client, NotFoundError

client = Client()  # MEMSVC_BASE_URL (default http://127.0.0.1:8080) and MEMSVC_API_KEY

created = client.conversations.create(
    "db migration",
    folder="/work/backend",
    messages=[{"role": "user", "content": "The migration deadlocked on the orders table"}],
)
client.conversations.append(created["id"], [{"role": "assistant", "content": "Split it into two transactions"}])

# Search by meaning and by words (hybrid, the default); keyword filters narrow it.
for hit in client.search.query("why did the migration deadlock?", limit=5, folder="/work")["results"]:
    print(f"{hit['score']:.2f} {hit['label']}: {hit['content']}")

# Context for a prompt, packed into a token budget, as one string with its sources.
context = client.context.text("orders table migration", context_budget=1000)
print(context["token_count"], "tokens from", len(context["sources"]), "messages")

# Every conversation in a folder; the next page is fetched only when needed.
for item in client.conversations.iterate(folder="/work", page_size=50):
    print(item["label"], item["metadata"]["message_count"])

# An MCP tool by name (its REST form): the answer's "data" is the tool's result.
stats = client.tools.call("memory_stats", {"folder": "/work"})
print("conversations under /work:", stats["data"]["total_conversations"])

# Failures are typed, with the HTTP status and memsvc's error code.
try:
    client.conversations.get("00000000-0000-4000-8000-000000000000")
except NotFoundError as error:
    print(error.status, error.code)  # 404 CONVERSATION_NOT_FOUND

client.conversations.delete(created["id"])
