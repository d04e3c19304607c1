// Bundles the package's JavaScript into <outDir>: the command (bin/clockcheck.js), the main export
// (index.js) and the selftest's worker thread (selftest/selftest-worker.js), the code they share in
// chunks/. The packages clockcheck depends on stay imports: npm installs them once, as dependencies.
// One file per command instead of some 400 modules: a command starts in about two thirds of the CPU
// (the ESM loader's per-module cost), and the tests start it hundreds of times. tsc writes only the
// declarations (tsconfig.build.json); dist/ for the package, .devbuild/ for the tests
// (test/global-setup.ts). `node scripts/bundle.mjs dist`.
//
// The tests' build (.devbuild/, test/global-setup.ts) inlines the dependencies instead
// (`--inline-packages`): the tests start the command hundreds of times, and each start of the
// package's form loads zod, undici, fast-check and luxon module by module (about a fifth more CPU
// for a `run`, some 45 s of npm test). What ships keeps them packages; the package test, `npm start`
// and the compiled selftest of CI run that form.
//
// A module that finds a file from its own place (`new URL(…, import.meta.url)`: spec/, package.json,
// the parsed suites, the worker, the bin) finds it as if compiled file by file: each `import.meta.url`
// becomes the URL of <outDir>/<its path under src/>.js, relative to the output file the module lands in.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The entry points under src/, each written to the same path under <outDir> (.js). */
const ENTRIES = ['bin/clockcheck.ts', 'index.ts', 'selftest/selftest-worker.ts'];

/** Stands for <outDir> in a module's own URL until the output file it lands in is known. */
const OUT_DIR = '__clockcheck_out_dir__/';

/**
 * A CommonJS package inlined into an ES module requires Node's modules: `require` as in CommonJS
 * (the tests' build only; the package's form imports its dependencies).
 */
const REQUIRE_BANNER = "import { createRequire as __clockcheckRequire } from 'node:module';\nconst require = __clockcheckRequire(import.meta.url);";

/**
 * Bundles the entries of `<root>/src` into `outDir`; `inlinePackages` inlines the dependencies too
 * (autocannon stays a package: it finds its own files by __dirname).
 */
export async function bundle(root, outDir, { inlinePackages = false } = {}) {
  const { build } = await import('esbuild');
  const src = join(root, 'src');
  const { outputFiles } = await build({
    entryPoints: ENTRIES.map((entry) => join(src, entry)),
    outbase: src,
    outdir: outDir,
    entryNames: '[dir]/[name]',
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    ...(inlinePackages ? { external: ['autocannon'], banner: { js: REQUIRE_BANNER } } : { packages: 'external' }),
    write: false,
    logLevel: 'error',
    plugins: [
      {
        name: 'module-url',
        setup(b) {
          b.onLoad({ filter: /\.ts$/ }, async (args) => {
            const text = await readFile(args.path, 'utf8');
            const own = OUT_DIR + relative(src, args.path).split('\\').join('/').replace(/\.ts$/, '.js');
            return { contents: text.replaceAll('import.meta.url', `new URL(${JSON.stringify(own)}, import.meta.url).href`), loader: 'ts' };
          });
        },
      },
    ],
  });
  for (const file of outputFiles) {
    const up = relative(dirname(file.path), outDir).split('\\').join('/');
    await mkdir(dirname(file.path), { recursive: true });
    await writeFile(file.path, file.text.replaceAll(OUT_DIR, up === '' ? './' : `${up}/`));
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const root = resolve(import.meta.dirname, '..');
  const args = process.argv.slice(2);
  await bundle(root, resolve(root, args.find((a) => !a.startsWith('--')) ?? 'dist'), { inlinePackages: args.includes('--inline-packages') });
}
