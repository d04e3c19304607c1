import { resolve } from 'node:path';

/**
 * The `clockcheck` the benches run as a command: the compiled package's bin (what `npm start` and a
 * user's `npx clockcheck` run; `npm run bench` builds it first). `CLOCKCHECK_BIN` measures another
 * checkout or build, e.g. bin/clockcheck-dev.mjs for the TypeScript sources through tsx.
 */
export function cliBin(): string {
  return resolve(process.env.CLOCKCHECK_BIN ?? 'dist/bin/clockcheck.js');
}

/** The median of `values` (the mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
