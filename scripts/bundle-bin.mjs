// Bundles the `clockcheck` command (src/bin/clockcheck.ts, its commands and the packages they use)
// into <outDir>/bin/: clockcheck.js and the chunks its commands load on demand, beside the
// file-by-file build in <outDir> (tsc for dist/, test/support/source-build.ts for .devbuild/). One
// file per command instead of some 400 modules: a command starts in about two thirds of the CPU
// (the ESM loader's per-module cost), and the tests start it hundreds of times.
//
// A module that finds a file from its own place (`new URL(…, import.meta.url)`: spec/, package.json,
// the parsed suites, the selftest's worker) still finds it where the file-by-file build put the
// module: each `import.meta.url` is rewritten to the module's own URL in <outDir>. autocannon stays
// a package of its own (it finds its files by __dirname). `node scripts/bundle-bin.mjs dist`.
import { readFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Bundles `<root>/src/bin/clockcheck.ts` into `<outDir>/bin/`. */
export async function bundleBin(root, outDir) {
  const { build } = await import('esbuild');
  const src = join(root, 'src');
  await build({
    entryPoints: [join(src, 'bin/clockcheck.ts')],
    outdir: join(outDir, 'bin'),
    entryNames: '[name]',
    chunkNames: 'chunk-[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: ['autocannon'],
    // A package written as CommonJS requires Node's modules: `require` as in CommonJS.
    banner: { js: "import { createRequire as __clockcheckRequire } from 'node:module';\nconst require = __clockcheckRequire(import.meta.url);" },
    logLevel: 'error',
    plugins: [
      {
        name: 'module-url',
        setup(b) {
          b.onLoad({ filter: /\.ts$/ }, async (args) => {
            const text = await readFile(args.path, 'utf8');
            // Every chunk is in <outDir>/bin/: the module's file-by-file place is ../<path>.js from there.
            const own = `../${relative(src, args.path).split('\\').join('/').replace(/\.ts$/, '.js')}`;
            return { contents: text.replaceAll('import.meta.url', `new URL(${JSON.stringify(own)}, import.meta.url).href`), loader: 'ts' };
          });
        },
      },
    ],
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const root = resolve(import.meta.dirname, '..');
  await bundleBin(root, resolve(root, process.argv[2] ?? 'dist'));
}
