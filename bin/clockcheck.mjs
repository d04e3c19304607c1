#!/usr/bin/env node
// Runs the TypeScript sources directly (tsx), so `npx clockcheck` always runs the checked-out code.
import { setFlagsFromString } from 'node:v8';
import { register } from 'tsx/esm/api';

// The young generation stays at its initial size instead of growing to 16 MB semi-spaces: a run
// allocates many short-lived bodies, and growing it would add about 30 MB of peak RSS for no
// measurable speed (npm run bench -- --only hostile; issue 10).
setFlagsFromString('--semi-space-growth-factor=1');
register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
