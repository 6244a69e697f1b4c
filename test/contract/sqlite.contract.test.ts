import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStorage } from '../../src/adapters/sqlite/sqlite-storage.js';
import { storageContract } from './storage-contract.js';

storageContract({
  name: 'sqlite',
  claimsExclude: false,
  open: async (options) => openSqliteStorage(mkdtempSync(join(tmpdir(), 'memsvc-contract-')), options),
});
