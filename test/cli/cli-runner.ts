import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));
/** tsx found from here, so the command runs from any working directory. */
const TSX = import.meta.resolve('tsx');

export interface CliResult { code: number | null; stdout: string; stderr: string }

/** The environment without the caller's MEMSVC_* settings, plus the given ones. */
export function cliEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('MEMSVC_')) env[name] = value;
  return { ...env, MEMSVC_CONFIG: '/nonexistent/memsvc.yaml', ...extra };
}

/** Runs the real `memsvc` command (from source) to completion. */
export function runCli(args: string[], env: NodeJS.ProcessEnv, cwd?: string): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', TSX, CLI, ...args], { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => { stdout += chunk; });
    child.stderr.on('data', (chunk) => { stderr += chunk; });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
