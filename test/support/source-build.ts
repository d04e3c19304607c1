import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';

/**
 * Transpiles src/ file by file (no bundle, no type check: `npm run typecheck` does that) into
 * `outDir`, a directory directly under the repository root as dist/ is, so every path a module
 * finds from its own place (spec/, package.json, the launcher) resolves as in the package. Relative
 * `.ts` imports become `.js`. About half a second; a CLI started from it costs half the CPU of one
 * started through tsx (bin/clockcheck-dev.mjs), which the tests start hundreds of times.
 */
export async function buildSources(root: string, outDir: string): Promise<void> {
  const srcDir = join(root, 'src');
  const entryPoints = (await readdir(srcDir, { recursive: true })).filter((f) => f.endsWith('.ts')).map((f) => join(srcDir, f));
  const result = await build({ entryPoints, outdir: outDir, outbase: srcDir, format: 'esm', platform: 'node', target: 'node20', bundle: false, write: false, logLevel: 'error' });
  await rm(outDir, { recursive: true, force: true });
  for (const file of result.outputFiles) {
    const text = file.text.replace(/((?:from|import)\s*\(?\s*)(['"])(\.{1,2}\/[^'"]+?)\.ts\2/g, '$1$2$3.js$2');
    await mkdir(dirname(file.path), { recursive: true });
    await writeFile(file.path, text);
  }
}
