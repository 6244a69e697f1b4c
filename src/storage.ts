import type { Config } from './config/config.schema.js';
import { openSqliteStorage } from './adapters/sqlite/sqlite-storage.js';
import { openPostgresStorage } from './adapters/postgres/postgres-storage.js';
import type { Logger } from './ports/logger.js';
import type { Storage } from './ports/storage.js';

/** The one place that knows which storage driver runs: storage.driver in config. */
export async function openStorage(config: Config, log?: Logger): Promise<Storage> {
  const indexParameters = {
    connectivity: config.search.index_connectivity,
    expansionAdd: config.search.index_expansion_add,
    expansionSearch: config.search.index_expansion_search,
    quantization: config.search.index_quantization,
  };
  if (config.storage.driver === 'postgres') {
    return openPostgresStorage({
      url: config.storage.url, poolSize: config.storage.pool_size,
      vectorIndex: { kind: config.storage.vector_index, probeShare: config.storage.ivfflat_probe_share,
        efSearch: config.storage.hnsw_ef_search },
      dataDir: config.server.data_dir, indexParameters,
      log,
    });
  }
  return openSqliteStorage(config.server.data_dir, {
    synchronous: config.storage.durability === 'full' ? 'FULL' : 'NORMAL',
    maxSizeMb: config.storage.max_size_mb,
    log,
    exactMaxCandidates: config.search.exact_max_candidates,
    rerankOversample: config.search.rerank_oversample,
    indexParameters,
  });
}
