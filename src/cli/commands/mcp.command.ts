import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { buildMcpServer } from '../../mcp/mcp-server.js';
import { serviceCatalog, type ServiceEndpoint } from '../../mcp/service-catalog.js';
import type { RunningService } from '../../main.js';
import type { CliContext } from '../cli-context.js';

const answers = async (url: string): Promise<boolean> => {
  try {
    const response = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2000) });
    const body = await response.json() as { checks?: unknown };
    return body.checks !== undefined;
  } catch {
    return false;
  }
};

/**
 * `memsvc mcp`: an MCP server on stdio. It forwards to the memsvc running at the configured address,
 * with the key from the standard data dir; when none runs, it starts the service in this process
 * (same config; on a free port if the configured one is taken). Nothing but the protocol goes to stdout.
 */
export async function runStdioMcp(context: CliContext): Promise<void> {
  let own: RunningService | null = null;
  let starting: Promise<RunningService> | null = null;
  const locate = async (): Promise<ServiceEndpoint> => {
    if (!starting) {
      const apiKey = context.findApiKey();
      if (apiKey !== null && await answers(context.serviceUrl)) return { url: context.serviceUrl, apiKey };
    }
    // One in-process service at most, however many calls arrive while it starts.
    starting ??= (async () => {
      process.stderr.write(`memsvc mcp: no memsvc answers at ${context.serviceUrl}; starting one in this process\n`);
      const { startService } = await import('../../main.js');
      own = await startService({ output: process.stderr, portFallback: true });
      return own;
    })().catch((error: unknown) => { starting = null; throw error; });
    const service = await starting;
    return { url: service.url, apiKey: service.apiKey };
  };
  const server = buildMcpServer(serviceCatalog(locate));
  const transport = new StdioServerTransport();
  let closing = false;
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    await own?.close();
    process.exit(0);
  };
  transport.onclose = () => void shutdown();
  process.stdin.once('end', () => void shutdown());
  process.once('SIGTERM', () => void shutdown());
  process.once('SIGINT', () => void shutdown());
  await server.connect(transport);
  // Found (or started) now rather than at the first call, so the first call is quick.
  void locate().catch((error: unknown) => process.stderr.write(`memsvc mcp: ${(error as Error).message}\n`));
}
