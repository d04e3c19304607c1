#!/usr/bin/env node
// Development only: runs the `clockcheck` command from the TypeScript sources (tsx), so a checkout's
// edits take effect without a build. The package's bin is dist/bin/clockcheck.js (npm run build).
import { register } from 'tsx/esm/api';

register();
await import('../src/bin/clockcheck.ts');
