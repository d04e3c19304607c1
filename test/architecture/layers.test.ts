import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, runProcess, type CliResult } from '../support/cli.ts';

const require = createRequire(import.meta.url);
const { layeringMarkdown } = require('../../scripts/layering.cjs') as { layeringMarkdown: () => string };

const DEPCRUISE = join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');

/** `depcruise src --config <ours>` in `cwd`, as `npm run layers` runs it. */
function depcruise(cwd: string): Promise<CliResult> {
  return runProcess(process.execPath, [DEPCRUISE, 'src', '--config', CONFIG, '--output-type', 'err'], process.env, cwd);
}

const scratch = mkdtempSync(join(tmpdir(), 'clockcheck-layers-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function write(path: string, text: string): void {
  mkdirSync(dirname(join(scratch, path)), { recursive: true });
  writeFileSync(join(scratch, path), text);
}

describe('the layering of ARCHITECTURE.md', () => {
  it('holds for src/: dependency-cruiser finds no violation of its rules', async () => {
    const result = await depcruise(ROOT);
    expect(result.stdout + result.stderr).toMatch(/no dependency violations found/);
    expect(result.code).toBe(0);
  }, 60_000);

  it('is the page: ARCHITECTURE.md shows exactly the rules the cruiser enforces', () => {
    const page = readFileSync(join(ROOT, 'ARCHITECTURE.md'), 'utf8');
    expect(page).toContain(layeringMarkdown());
  });

  it('fails on a wrong import: a lower layer importing a higher one, a cycle, another folder\'s _internals, the reference server', async () => {
    write('tsconfig.json', JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', allowImportingTsExtensions: true, noEmit: true } }));
    write('src/errors.ts', 'export class ClockcheckError extends Error {}\n');
    // contract/ may import nothing of ours: importing run/ breaks its row.
    write('src/contract/rules.ts', "import { certify } from '../run/certify.ts';\nexport const RULES = [certify];\n");
    write('src/run/certify.ts', "import { helper } from '../client/_internals/helper.ts';\nimport { start } from '../reference/server.ts';\nexport const certify = () => [helper, start];\n");
    // client/_internals/ is private to client/.
    write('src/client/_internals/helper.ts', 'export const helper = 1;\n');
    write('src/client/client.ts', "import { helper } from './_internals/helper.ts';\nexport const client = helper;\n");
    write('src/reference/server.ts', 'export const start = 1;\n');
    // A cycle inside one folder.
    write('src/records/a.ts', "import { b } from './b.ts';\nexport const a = () => b;\n");
    write('src/records/b.ts', "import { a } from './a.ts';\nexport const b = () => a;\n");
    const result = await depcruise(scratch);
    const out = result.stdout + result.stderr;
    expect(result.code).not.toBe(0);
    expect(out).toMatch(/contract-layer: src\/contract\/rules\.ts → src\/run\/certify\.ts/);
    expect(out).toMatch(/internals-of-client: src\/run\/certify\.ts → src\/client\/_internals\/helper\.ts/);
    expect(out).toMatch(/reference-is-apart: src\/run\/certify\.ts → src\/reference\/server\.ts/);
    expect(out).toMatch(/no-circular: src\/records\/a\.ts →/);
    expect(out).not.toMatch(/src\/client\/client\.ts → src\/client\/_internals/); // its own _internals
  }, 60_000);
});
