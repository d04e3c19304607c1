import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RULES } from '../../src/contract/rules.ts';
import { ROOT } from '../support/cli.ts';

const exec = promisify(execFile);
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
/** npm's own output options: no audit, fund or update notices, packages from the cache where it has them. */
const QUIET_NPM = ['--no-audit', '--no-fund', '--no-update-notifier', '--prefer-offline'];
/** The JavaScript the package runs, all of it bundled (scripts/bundle.mjs): its entries, and the code they share in dist/chunks/. */
const BUNDLE_ENTRIES = ['dist/bin/clockcheck.js', 'dist/index.js', 'dist/selftest/selftest-worker.js'];
/** A string of each dependency's own code, which no code of clockcheck's contains: found in the bundle, the dependency was inlined. */
const DEPENDENCY_MARKS: Record<string, string> = {
  zod: '$ZodType',
  luxon: 'throwOnInvalid',
  'fast-check': 'Property failed after',
  yaml: 'Implicit map keys need to be',
  undici: 'undici:request:create',
  '@peculiar/x509': 'Cannot get hash algorithm name',
  autocannon: 'connections cannot be greater than amount',
};

interface PackedFile {
  readonly path: string;
}

/**
 * The package as a user gets it: `npm pack` (which builds dist/ in `prepare`), the tarball installed
 * into an empty directory, and `npx clockcheck` run there, away from the checkout and its tsx.
 */
describe('the npm package', () => {
  let work: string;
  let consumer: string;
  let files: readonly string[];
  let tarballBytes: number;

  const npx = (args: readonly string[], timeout = 60_000) =>
    exec('npx', ['--no-install', 'clockcheck', ...args], { cwd: consumer, timeout, env: { ...process.env, CLOCKCHECK_TOKEN: '' } });

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'clockcheck-pack-'));
    consumer = join(work, 'consumer');
    const packed = await exec('npm', ['pack', '--json', '--pack-destination', work, ...QUIET_NPM], { cwd: ROOT, timeout: 180_000, maxBuffer: 32 * 2 ** 20 });
    const [manifest] = JSON.parse(packed.stdout) as [{ filename: string; size: number; files: PackedFile[] }];
    files = manifest.files.map((f) => f.path);
    tarballBytes = manifest.size;
    await exec('mkdir', [consumer]);
    await exec('npm', ['init', '-y'], { cwd: consumer, timeout: 30_000 });
    await exec('npm', ['install', join(work, manifest.filename), ...QUIET_NPM], { cwd: consumer, timeout: 300_000 });
  }, 480_000);

  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('ships the compiled CLI, the suites, the spec, the profiles and the docs the README links, and no sources, tests or dev launcher', () => {
    for (const shipped of ['dist/bin/clockcheck.js', 'dist/index.js', 'dist/index.d.ts', 'spec/time-tracking-public-api.md', 'docs/report-schema.json', 'docs/profiles.md', 'docs/troubleshooting.md', 'ARCHITECTURE.md', 'CONTRIBUTING.md', 'LICENSE', 'README.md', 'package.json']) {
      expect(files).toContain(shipped);
    }
    expect(files.some((f) => f.startsWith('suites/') && f.endsWith('.yaml'))).toBe(true);
    expect(files.some((f) => f.startsWith('fixtures/profiles/'))).toBe(true);
    expect(files.filter((f) => /^(src|test|bench|bin)\//.test(f) || f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
    expect(tarballBytes).toBeLessThanOrEqual(1_000_000);
  });

  it('ships its JavaScript in one form, the bundle: no module file by file, no source maps', () => {
    for (const entry of BUNDLE_ENTRIES) expect(files).toContain(entry);
    const js = files.filter((f) => /\.(m?js|map)$/.test(f));
    expect(js.filter((f) => !BUNDLE_ENTRIES.includes(f) && !/^dist\/chunks\/[^/]+\.js$/.test(f))).toEqual([]);
  });

  it('inlines none of its dependencies: each is installed once, as a package of its own', () => {
    const installed = join(consumer, 'node_modules/clockcheck');
    const bundle = files.filter((f) => f.endsWith('.js')).map((f) => readFileSync(join(installed, f), 'utf8')).join('\n');
    // esbuild heads each module it inlines with its path: none is from a package.
    expect(bundle).not.toMatch(/^\/\/ node_modules\//m);
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    for (const [name, mark] of Object.entries(DEPENDENCY_MARKS)) {
      expect(manifest.dependencies, name).toHaveProperty([name]);
      expect((JSON.parse(readFileSync(join(consumer, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version, name).toBe(manifest.dependencies[name]);
      expect(bundle.includes(mark), `${name}'s "${mark}" in the bundle`).toBe(false);
    }
  });

  it('installs without tsx, vitest or typescript: they are for development only', () => {
    const installed = readdirSync(join(consumer, 'node_modules'));
    expect(installed).toContain('clockcheck');
    for (const devOnly of ['tsx', 'vitest', 'typescript', 'esbuild']) expect(installed).not.toContain(devOnly);
  });

  it('npx clockcheck --version prints the package version', async () => {
    const { stdout } = await npx(['--version']);
    expect(stdout.trim()).toBe(VERSION);
  });

  it("leaves the checkout's own bin executable: npm pack's prepare ran npm run build there, and dist/bin/clockcheck.js runs by itself", async () => {
    const { stdout } = await exec(join(ROOT, 'dist/bin/clockcheck.js'), ['--version'], { cwd: ROOT, timeout: 30_000 });
    expect(stdout.trim()).toBe(VERSION);
  });

  it('npx clockcheck rules prints every rule of the catalog', async () => {
    const { stdout } = await npx(['rules']);
    for (const rule of RULES) expect(stdout).toContain(rule.id);
  });

  it('npx clockcheck run --only auth certifies the embedded server from the package and writes the reports', async () => {
    const reports = join(work, 'reports');
    const { stdout } = await npx(['run', '--only', 'auth', '--quiet', '--report-dir', reports], 120_000);
    expect(stdout).toMatch(/^PASSED/m);
    const [runDir] = readdirSync(reports);
    for (const file of ['report.json', 'report.html', 'junit.xml']) expect(existsSync(join(reports, runDir!, file))).toBe(true);
    const report = JSON.parse(readFileSync(join(reports, runDir!, 'report.json'), 'utf8')) as { tool: { version: string }; checks: { id: string; status: string }[] };
    expect(report.tool.version).toBe(VERSION);
    expect(report.checks.length).toBeGreaterThan(0);
    expect(report.checks.every((c) => c.id.startsWith('auth') && c.status === 'passed')).toBe(true);
  });

  it('the package exports its programmatic API with type declarations', async () => {
    const script = "import('clockcheck').then((m) => console.log(Object.keys(m).sort().join(',')))";
    const { stdout } = await exec(process.execPath, ['--input-type=module', '-e', script], { cwd: consumer, timeout: 30_000 });
    expect(stdout.trim().split(',')).toEqual(expect.arrayContaining(['RULES', 'runClockcheck', 'startReferenceServer', 'toolVersion']));
    expect(readFileSync(join(consumer, 'node_modules/clockcheck/dist/index.d.ts'), 'utf8')).toContain('RunReport');
  });

  it("the main export's reference server starts, answers on its origin and stops", async () => {
    const script = [
      "import { get } from 'node:https';",
      "const { startReferenceServer, toolVersion } = await import('clockcheck');",
      'const server = await startReferenceServer();',
      "const status = await new Promise((resolve, reject) => get(server.origin, { ca: server.tls.caPem }, (res) => resolve(res.resume().statusCode)).on('error', reject));",
      'await server.close();',
      'console.log(toolVersion(), server.origin, status);',
    ].join('\n');
    const { stdout } = await exec(process.execPath, ['--input-type=module', '-e', script], { cwd: consumer, timeout: 30_000 });
    expect(stdout.trim()).toMatch(new RegExp(`^${VERSION.replaceAll('.', '\\.')} https://127\\.0\\.0\\.1:\\d+ \\d{3}$`));
  });
});
