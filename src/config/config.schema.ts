import { Type, type Static } from 'typebox';

/**
 * The whole configuration of memsvc. Every leaf has a default, so an empty
 * `memsvc.yaml` (or none) yields a working local set-up. Each leaf can be
 * overridden from the environment as MEMSVC_<PATH>, e.g. bridge.ollama.url
 * -> MEMSVC_BRIDGE_OLLAMA_URL (see config.loader.ts).
 */
const Provider = Type.Union([Type.Literal('builtin'), Type.Literal('ollama'), Type.Literal('openai')], { default: 'builtin' });
const Tls = Type.Object({
  cert_file: Type.String({ default: '' }),
  key_file: Type.String({ default: '' }),
}, { default: {} });
const ChatProvider = Type.Union([Type.Literal('none'), Type.Literal('ollama'), Type.Literal('openai')], { default: 'none' });

export const ConfigSchema = Type.Object({
  server: Type.Object({
    host: Type.String({ default: '127.0.0.1' }),
    port: Type.Integer({ default: 8080, minimum: 0, maximum: 65535 }),
    /** Empty means: generate one on first start and keep it in data_dir/api_key (mode 0600). */
    api_key: Type.String({ default: '' }),
    /** Empty: ./data when an earlier version left a store there, else the platform data dir (~/.local/share/memsvc). */
    data_dir: Type.String({ default: '' }),
    log_level: Type.String({ default: 'info' }),
    /** Largest accepted request body. */
    body_limit_bytes: Type.Integer({ default: 32 * 1024 * 1024, minimum: 1024 }),
    /** A request's whole body must arrive within this (a slow or truncated body cannot hold a socket). */
    request_timeout_ms: Type.Integer({ default: 30_000, minimum: 0 }),
    /** An idle socket is closed after this. */
    connection_timeout_ms: Type.Integer({ default: 60_000, minimum: 0 }),
    /** A computed /health report is served again for this long, so the public endpoint cannot multiply load. */
    health_cache_ms: Type.Integer({ default: 1000, minimum: 0 }),
    /** HTTPS for the API (PEM files); both empty: plain HTTP. */
    tls: Tls,
  }, { default: {} }),
  metrics: Type.Object({
    /** /metrics is public (the spec); true puts it behind the API key, for a port reachable by others. */
    require_key: Type.Boolean({ default: false }),
  }, { default: {} }),
  storage: Type.Object({
    /** sqlite: one file in data_dir (the default). postgres: a shared PostgreSQL with pgvector, for several replicas. */
    driver: Type.Union([Type.Literal('sqlite'), Type.Literal('postgres')], { default: 'sqlite' }),
    /** postgres only: the connection string, e.g. postgres://memsvc:secret@db:5432/memsvc. */
    url: Type.String({ default: '' }),
    /** postgres only: connections this replica keeps open. */
    pool_size: Type.Integer({ default: 10, minimum: 1, maximum: 1000 }),
    /**
     * postgres only: where the vectors' nearest-neighbour index lives. local (the default): each replica keeps a graph
     * of the vectors in its data_dir, as the SQLite driver does (search.index_*), and follows the vectors other
     * replicas store; the database keeps no index of them. hnsw: pgvector's graph over the vectors as halfvec, in the
     * database, built as they arrive (replicas keep nothing; slower inserts and searches). ivfflat: lists learned from
     * the stored vectors, a share of them probed a search: slower and less exact at size on real text (docs/deploy.md).
     */
    vector_index: Type.Union([Type.Literal('ivfflat'), Type.Literal('hnsw'), Type.Literal('local')], { default: 'local' }),
    /** postgres, hnsw: the graph search's candidate list (hnsw.ef_search), at least: more finds more of the exact best, slower. */
    hnsw_ef_search: Type.Integer({ default: 400, minimum: 10, maximum: 1000 }),
    /** postgres, ivfflat: the share of the lists a search probes: more finds more of the exact best, slower. */
    ivfflat_probe_share: Type.Number({ default: 0.2, exclusiveMinimum: 0, maximum: 1 }),
    /**
     * sqlite: normal: an acknowledged write survives a crash of the process; power loss may drop the
     * last moments of writes (never corrupts). full: synchronous=FULL, it survives power loss too, at a
     * cost per write (see docs/reliability.md).
     */
    durability: Type.Union([Type.Literal('normal'), Type.Literal('full')], { default: 'normal' }),
    /** sqlite: cap on the database file in MiB; 0 means no cap. Past it writes get 507 (as on a full disk). */
    max_size_mb: Type.Number({ default: 0, minimum: 0 }),
  }, { default: {} }),
  /** Admission control (docs/reliability.md): past these, an immediate 503 with Retry-After instead of a stall. */
  admission: Type.Object({
    enabled: Type.Boolean({ default: true }),
    /** Search, context, summaries, labels, import/export, MCP running at once. */
    expensive_concurrency: Type.Integer({ default: 8, minimum: 1 }),
    /** Single-conversation reads and writes running at once. */
    cheap_concurrency: Type.Integer({ default: 64, minimum: 1 }),
    /** Requests of each class waiting for a slot. */
    queue_size: Type.Integer({ default: 128, minimum: 0 }),
    /** How long one may wait for a slot. */
    queue_timeout_ms: Type.Integer({ default: 1000, minimum: 1 }),
    /**
     * Mean event-loop delay (sampled every 200 ms) past which requests are shed (@fastify/under-pressure),
     * armed once the server listens; 0 turns it off. The backlog of an overloaded server waits in front of
     * the event loop, where the concurrency limits cannot see it. 250 comes from `npm run bench -- load`.
     */
    max_event_loop_delay_ms: Type.Integer({ default: 250, minimum: 0 }),
    /**
     * A delayed event loop sheds only while more client connections than this are open. HTTP/1.1 carries one
     * request at a time per connection, so no more requests than open connections can wait; below this, the
     * wait is bounded and shedding would only refuse the few clients there are (a lone user's slow context
     * assemblies delay the loop too). 0 sheds at any number of connections.
     */
    shed_above_connections: Type.Integer({ default: 16, minimum: 0 }),
  }, { default: {} }),
  rate_limit: Type.Object({
    enabled: Type.Boolean({ default: true }),
    requests_per_second: Type.Number({ default: 100, exclusiveMinimum: 0 }),
    burst_size: Type.Integer({ default: 200, minimum: 1 }),
    /** memory: per process. redis: one limit per key across every replica (falls back to memory while Redis is down). */
    store: Type.Union([Type.Literal('memory'), Type.Literal('redis')], { default: 'memory' }),
    redis_url: Type.String({ default: 'redis://127.0.0.1:6379' }),
  }, { default: {} }),
  limits: Type.Object({
    max_message_chars: Type.Integer({ default: 100_000, minimum: 1 }),
    max_messages_per_conversation: Type.Integer({ default: 10_000, minimum: 1 }),
    max_page_size: Type.Integer({ default: 1000, minimum: 1 }),
    max_query_results: Type.Integer({ default: 1000, minimum: 1 }),
    max_label_chars: Type.Integer({ default: 200, minimum: 1 }),
    max_folder_chars: Type.Integer({ default: 512, minimum: 1 }),
    max_folder_depth: Type.Integer({ default: 32, minimum: 1 }),
    max_metadata_bytes: Type.Integer({ default: 16 * 1024, minimum: 2 }),
  }, { default: {} }),
  sessions: Type.Object({
    /** An append after this many idle minutes starts a new session. */
    idle_gap_minutes: Type.Number({ default: 30, minimum: 0 }),
  }, { default: {} }),
  bridge: Type.Object({
    /** Start the bridge inside `npm start` (set false when it runs elsewhere). */
    start: Type.Boolean({ default: true }),
    host: Type.String({ default: '127.0.0.1' }),
    port: Type.Integer({ default: 5001, minimum: 0, maximum: 65535 }),
    /** Where the controller reaches the bridge. */
    url: Type.String({ default: 'http://127.0.0.1:5001' }),
    timeout_ms: Type.Integer({ default: 30_000, minimum: 1 }),
    max_retries: Type.Integer({ default: 3, minimum: 0 }),
    embeddings: Type.Object({
      provider: Provider,
      model: Type.String({ default: '' }),
      batch_size: Type.Integer({ default: 64, minimum: 1 }),
    }, { default: {} }),
    summaries: Type.Object({ provider: Provider, model: Type.String({ default: '' }) }, { default: {} }),
    chat: Type.Object({ provider: ChatProvider, model: Type.String({ default: '' }) }, { default: {} }),
    ollama: Type.Object({ url: Type.String({ default: 'http://127.0.0.1:11434' }) }, { default: {} }),
    openai: Type.Object({
      url: Type.String({ default: 'https://api.openai.com/v1' }),
      api_key: Type.String({ default: '' }),
    }, { default: {} }),
  }, { default: {} }),
  embedding_worker: Type.Object({
    enabled: Type.Boolean({ default: true }),
    batch_size: Type.Integer({ default: 64, minimum: 1 }),
    poll_interval_ms: Type.Integer({ default: 250, minimum: 10 }),
    max_backoff_ms: Type.Integer({ default: 30_000, minimum: 10 }),
    /** After a failed batch, the bridge's /health is probed at most this far apart; when it answers again, work resumes at once. */
    bridge_probe_max_ms: Type.Integer({ default: 1000, minimum: 10 }),
    /** postgres: a claimed batch not finished within this time is taken again by another replica. */
    claim_lease_ms: Type.Integer({ default: 60_000, minimum: 100 }),
    /**
     * Once clients wait on writes of messages (4 or more at once), the worker embeds nothing until the burst ends, for at
     * most this long at a stretch, then one batch; 0: it never yields. See docs/configuration.md.
     */
    max_yield_ms: Type.Integer({ default: 1000, minimum: 0, maximum: 60_000 }),
  }, { default: {} }),
  search: Type.Object({
    /** hybrid measured best on LoCoMo (see README); semantic and keyword are there per request. */
    default_mode: Type.Union([Type.Literal('hybrid'), Type.Literal('semantic'), Type.Literal('keyword')], { default: 'hybrid' }),
    /** sqlite: a filtered semantic search matching at most this many vectors ranks them exactly instead of using the index (postgres: 20,000, docs/deploy.md). */
    exact_max_candidates: Type.Integer({ default: 4000, minimum: 0, maximum: 1_000_000 }),
    /**
     * SQLite: an unfiltered semantic search takes depth x this (+ 16) candidates from the index, best first by the
     * graph's approximate scores, and re-ranks them exactly with the stored vectors (depth: 100 for a page of 10).
     * More finds more of the exact ten and reads more stored vectors (bench/NOTES.md, session 30).
     */
    rerank_oversample: Type.Number({ default: 1, minimum: 1, maximum: 8 }),
    /**
     * SQLite: M of the HNSW graph holding every vector. A saved graph keeps its own; a rebuilt one takes this
     * (docs/performance.md).
     */
    index_connectivity: Type.Integer({ default: 16, minimum: 2, maximum: 256 }),
    /** SQLite: candidates explored per insert: the graph's quality, and most of the indexing cost. Not saved with a graph. */
    index_expansion_add: Type.Integer({ default: 128, minimum: 1, maximum: 4096 }),
    /** SQLite: candidates a search explores at least; more as the store grows (2 x sqrt of its vectors, up to 4,096) and never fewer than it asks for. */
    index_expansion_search: Type.Integer({ default: 384, minimum: 1, maximum: 4096 }),
    /** SQLite: how the graph stores vectors (i8 or f16); the stored f32 vectors re-rank either exactly. A saved graph keeps its own. */
    index_quantization: Type.Union([Type.Literal('i8'), Type.Literal('f16')], { default: 'i8' }),
    /**
     * auto: with the builtin embedder, questions are embedded in the controller's process (same vectors, no bridge
     * round trip; needs the bridge's model cache in <data_dir>/cache); bridge: every question goes to the bridge.
     */
    query_embedding: Type.Union([Type.Literal('auto'), Type.Literal('bridge')], { default: 'auto' }),
    /** Hybrid: score bonus (x(1 + w)) for messages whose author, a leading "Name:", the query names; 0 = off (docs/search.md). */
    author_weight: Type.Number({ default: 0.5, minimum: 0, maximum: 10 }),
    /** Hybrid: share of its session's best scores each message gains; 0 = off, 0.15 measured (docs/search.md). */
    session_weight: Type.Number({ default: 0, minimum: 0, maximum: 10 }),
    /** SQLite full text under a filter (folder, label, dates...): term rarity from the messages it admits, not the whole store. */
    scoped_statistics: Type.Boolean({ default: true }),
    /** Hybrid and context assembly: score bonus (x(1 + w)) for messages written in a period the query names ("in June"); 0 = off. */
    time_weight: Type.Number({ default: 1, minimum: 0, maximum: 10 }),
    /** Context assembly: named authors, named periods and session evidence in the relevance ranking; false = the ranking before them. */
    context_refinement: Type.Boolean({ default: true }),
    /** Context assembly: relevance added to messages whose author the query names; 0 = off (docs/search.md). */
    context_author_prior: Type.Number({ default: 0.8, minimum: 0, maximum: 10 }),
    /** Context assembly: share of its session's evidence each message gains; 0 = off (docs/search.md). */
    context_session_weight: Type.Number({ default: 1, minimum: 0, maximum: 10 }),
  }, { default: {} }),
  mcp: Type.Object({
    /** Where `memsvc mcp` (stdio) finds the running service; empty: http://<server.host>:<server.port>. */
    server_url: Type.String({ default: '' }),
  }, { default: {} }),
  proxy: Type.Object({
    enabled: Type.Boolean({ default: false }),
    host: Type.String({ default: '127.0.0.1' }),
    port: Type.Integer({ default: 8081, minimum: 0, maximum: 65535 }),
    /** HTTPS for the proxy; both empty: the proxy uses server.tls (plain HTTP when that is empty too). */
    tls: Tls,
    upstream_url: Type.String({ default: 'http://127.0.0.1:11434/v1' }),
    upstream_api_key: Type.String({ default: '' }),
    /** Honour a client's `X-Upstream-Authorization` header (sent upstream as Authorization); refused with 400 when false. */
    pass_through_auth: Type.Boolean({ default: false }),
    /** Context budget in tokens when a request sends no X-Memory-Budget. */
    default_budget: Type.Integer({ default: 2000, minimum: 100, maximum: 200_000 }),
    /** Non-streaming: the whole upstream answer; streaming: the response headers, then each gap between chunks. */
    timeout_ms: Type.Integer({ default: 120_000, minimum: 1 }),
    /** Storing an exchange: attempts per process run, and the exponential backoff between them. */
    store_retry_max_attempts: Type.Integer({ default: 8, minimum: 1 }),
    store_retry_base_ms: Type.Integer({ default: 500, minimum: 1 }),
    store_retry_max_ms: Type.Integer({ default: 60_000, minimum: 1 }),
  }, { default: {} }),
}, { default: {} });

export type Config = Static<typeof ConfigSchema>;
