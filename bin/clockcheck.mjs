#!/usr/bin/env node
// Runs the TypeScript sources directly (tsx), so `npx clockcheck` always runs the checked-out code.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
