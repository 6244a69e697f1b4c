/**
 * Entry point of the server process that `startBenchServer` forks: runs the
 * real controller and answers the parent's IPC commands (ready, exec, cpu, close).
 */
import { startController } from './controller.js';
import { isServerTask } from './server-task.js';
import type { ChildReply, ParentCommand } from './server.js';

const dataDir = process.argv[2];
const bridgeUrl = process.argv[3];
if (!dataDir || !process.send) {
  process.stderr.write('server-child: expected a data dir argument and an IPC channel\n');
  process.exit(2);
}

const send = (reply: ChildReply, then?: () => void) => process.send!(reply, undefined, undefined, then);
const { controller, baseUrl, apiKey } = await startController(dataDir, bridgeUrl || undefined, process.env.MEMSVC_BENCH_API_KEY || undefined);
let closing = false;

process.on('message', (command: ParentCommand) => {
  void handle(command);
});
process.on('disconnect', () => {
  // The parent went away (crash or Ctrl-C): do not linger.
  if (closing) return;
  closing = true;
  void controller.close().finally(() => process.exit(0));
});
send({ type: 'ready', baseUrl, apiKey, pid: process.pid });

async function handle(command: ParentCommand): Promise<void> {
  try {
    switch (command.type) {
      case 'exec': {
        const module = (await import(command.module)) as Record<string, unknown>;
        const task = module[command.name];
        if (!isServerTask(task)) throw new Error(`${command.module} has no server task export named ${command.name}`);
        const result = await task.run(controller, command.args);
        send({ type: 'result', id: command.id, ok: true, value: result });
        break;
      }
      case 'cpu': {
        const usage = process.cpuUsage();
        send({ type: 'result', id: command.id, ok: true, value: { user_ms: usage.user / 1000, system_ms: usage.system / 1000 } });
        break;
      }
      case 'close': {
        closing = true;
        await controller.close();
        send({ type: 'result', id: command.id, ok: true, value: null }, () => process.exit(0));
        break;
      }
    }
  } catch (error) {
    const err = error as Error;
    send({ type: 'result', id: command.id, ok: false, error: `${err.message}\n${err.stack ?? ''}` });
  }
}
