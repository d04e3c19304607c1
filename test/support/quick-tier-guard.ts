import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';

/**
 * The quick tier's guard (test/tiers.ts): a test there starts no server and no process. Listening on
 * a socket or spawning a process throws, naming the way out; the file then belongs to the
 * integration tier (name what it starts in the file, or add it to SERVER_OR_PROCESS's words).
 */
const refuse = (what: string) => () => {
  throw new Error(`the quick tier starts no ${what} (test/tiers.ts): this file belongs to the integration tier`);
};
net.Server.prototype.listen = refuse('server') as never;
for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'] as const) {
  (childProcess as unknown as Record<string, unknown>)[name] = refuse('process');
}
syncBuiltinESMExports();
