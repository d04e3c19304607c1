#!/usr/bin/env node
// The `clockcheck` command. Compiled to dist/bin/clockcheck.js (the package's bin); in a checkout,
// bin/clockcheck-dev.mjs runs this file from the TypeScript sources.
import { setFlagsFromString } from 'node:v8';

// The young generation stays at its initial size instead of growing to 16 MB semi-spaces: a run
// allocates many short-lived bodies, and growing it would add about 30 MB of peak RSS for no
// measurable speed (npm run bench -- --only hostile; issue 10). Set before the CLI is imported.
setFlagsFromString('--semi-space-growth-factor=1');
const { main, reportError } = await import('../cli/main.ts');
// An error no command caught (a callback's, a stray promise's) is still one line and exit code 70, never a stack.
const crash = (error: unknown): never => process.exit(reportError(error));
// A reader that stops reading (`clockcheck openapi | head`) is not an error: end quietly, as Unix tools do.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' ? process.exit(process.exitCode ?? 0) : crash(error)));
}
process.on('uncaughtException', crash);
process.on('unhandledRejection', crash);
// The event loop emptied with the command still awaited: it waits on a promise nothing can settle.
// A run notices this first (execute/loop-watch.ts: its own beforeExit listener ends it with a report and
// exit 70); anything else is one line and exit 70 here, never Node's silent exit 13.
let done = false;
process.on('beforeExit', () => {
  if (done || process.listenerCount('beforeExit') > 1) return;
  done = true;
  crash(new Error(`the command waited on something nothing could ever settle (the event loop emptied): clockcheck ${process.argv[2] ?? ''}`.trimEnd()));
});
process.exitCode = await main(process.argv.slice(2));
done = true;
// An interrupted run has written its reports; what its stopped checks were still waiting for (a
// quiet period, a window) is dropped, not waited for.
if (process.exitCode === 130 || process.exitCode === 143) process.exit(process.exitCode);
