#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { loadConfig } from './config/config.loader.js';
import { API_KEY_FILE } from './config/api-key.js';
import { buildMcpServer } from './mcp/mcp-server.js';
import { loadRemoteCatalog } from './mcp/remote-catalog.js';

const USAGE = `usage: memsvc <command>
  start    run the service (controller, bridge, proxy when enabled); same as npm start
  mcp      MCP server on stdio for Claude Desktop, Cursor and similar; forwards to a running memsvc
  migrate  [--to postgres://…]  bring the store's schema up to date, or copy the SQLite store to PostgreSQL`;

/** `memsvc mcp`: stdout carries only the protocol, so everything else goes to stderr. */
async function runStdioMcp(): Promise<void> {
  const config = loadConfig();
  const url = config.mcp.server_url || `http://${config.server.host}:${config.server.port}`;
  let apiKey = config.server.api_key;
  if (apiKey === '') {
    try {
      apiKey = readFileSync(join(config.server.data_dir, API_KEY_FILE), 'utf8').trim();
    } catch {
      throw new Error(`no API key: set MEMSVC_API_KEY or run memsvc once so ${join(config.server.data_dir, API_KEY_FILE)} exists`);
    }
  }
  const server = buildMcpServer(await loadRemoteCatalog(url, apiKey));
  await server.connect(new StdioServerTransport());
}

async function main(argv: string[]): Promise<void> {
  switch (argv[0]) {
    case 'mcp':
      return runStdioMcp();
    case 'migrate': {
      const { runMigrate } = await import('./cli/migrate-command.js');
      const toAt = argv.indexOf('--to');
      const to = toAt >= 0 ? argv[toAt + 1] : undefined;
      if (toAt >= 0 && to === undefined) throw new Error('--to needs a postgres:// connection string');
      process.exitCode = await runMigrate(loadConfig(), to === undefined ? {} : { to });
      return;
    }
    case 'start':
    case undefined:
      await import('./main.js');
      return;
    default:
      process.stderr.write(`${USAGE}\n`);
      process.exit(2);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`memsvc: ${(error as Error).message}\n`);
  process.exit(1);
});
