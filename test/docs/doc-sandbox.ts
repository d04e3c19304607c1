import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { startReferenceServer, type ReferenceServer } from '../../src/reference/server.ts';
import type { TlsIdentity } from '../../src/tls/certificate.ts';
import { DEV_BIN, ROOT, runProcess } from '../support/cli.ts';
import type { DocBlock } from './doc-blocks.ts';

/** The reference server's limit in the docs test: the spec's 60 calls, in a window of a second. */
export const DOCS_RATE_LIMIT = { limit: 60, windowMs: 1000 } as const;
const DOCS_RATE_LIMIT_FLAG = '60/1s';
/** No single command of the docs may take longer (the docs keep their commands short). */
const COMMAND_TIMEOUT_S = 150;
const PLACEHOLDER_TOKEN = 'docs-test-token';
const PLACEHOLDER_SECRET = 'docs-test-secret';

/** One command of a block as it ran: its exit code and the words it ran with (after the test's changes). */
export interface RanCommand {
  readonly code: number;
  readonly seconds: number;
  readonly words: string;
}

export interface BlockResult {
  readonly commands: readonly RanCommand[];
  readonly stdout: string;
  readonly stderr: string;
}

/** `clockcheck` and `npx clockcheck` as bash functions (see the file). */
const SHIM = join(import.meta.dirname, 'clockcheck-shim.bash');

/**
 * A page's scratch directory and reference server. The page's blocks run in order in the same
 * directory, as a reader types them one after the other: it links fixtures/, suites/ and spec/,
 * holds the reference server's CA as ca.pem, and a clockcheck.profile.yaml for that server unless
 * the page writes one with `clockcheck init` itself.
 */
export class DocSandbox {
  readonly dir: string;
  readonly #tls: TlsIdentity;
  readonly #blocks: readonly DocBlock[];
  #server: ReferenceServer | null = null;

  constructor(page: string, blocks: readonly DocBlock[], tls: TlsIdentity) {
    this.#tls = tls;
    this.#blocks = blocks;
    this.dir = mkdtempSync(join(tmpdir(), `clockcheck-docs-${page.replace(/[^\w]+/g, '-')}-`));
    for (const shared of ['fixtures', 'suites', 'spec']) symlinkSync(join(ROOT, shared), join(this.dir, shared));
    writeFileSync(join(this.dir, 'ca.pem'), tls.caPem);
  }

  get #usesReference(): boolean {
    return this.#blocks.some((b) => b.directives.reference && b.directives.skip === null);
  }

  /** Starts the page's reference server (when a block needs one) and writes the page's profile. */
  async open(): Promise<void> {
    if (this.#usesReference) this.#server = await startReferenceServer({ rateLimit: DOCS_RATE_LIMIT, tls: this.#tls });
    const runsInit = this.#blocks.some((b) => b.directives.skip === null && b.commands.some((c) => /clockcheck\s+init\b/.test(c)));
    if (!runsInit) writeFileSync(join(this.dir, 'clockcheck.profile.yaml'), this.#profile());
  }

  async close(): Promise<void> {
    await this.#server?.close();
    rmSync(this.dir, { recursive: true, force: true });
  }

  /**
   * The profile a reader has after `clockcheck init`, for this page's target: the example profile
   * (fixtures/profiles/example.yaml) with the target, its CA and the closed timesheet of the seed.
   */
  #profile(): string {
    const profile = parse(readFileSync(join(ROOT, 'fixtures/profiles/example.yaml'), 'utf8')) as Record<string, any>;
    profile.target = this.#server?.origin ?? 'https://api.example.com';
    profile.tls = { ca: join(this.dir, 'ca.pem') };
    profile.fixtures.timesheet = { id: 1, start: '2026-10-01T09:00:00-05:00', end: '2026-10-01T17:00:00-05:00' };
    return `# the docs test's stand-in for the profile clockcheck init writes\n${stringify(profile)}`;
  }

  /** Writes a `file NAME` block into the directory. */
  writeFile(block: DocBlock): void {
    writeFileSync(join(this.dir, block.directives.file!), `${block.text}\n`);
  }

  /** Runs a shell block with bash in the directory, as its directives say; every clockcheck command's exit code is noted. */
  async run(block: DocBlock): Promise<BlockResult> {
    const { directives } = block;
    const server = directives.reference ? this.#server : null;
    if (directives.reference && !server) throw new Error(`${block.page}:${block.line}: no reference server`);
    // A fresh limiter: the calls of the blocks before do not count against this one's commands.
    server?.setRateLimit(DOCS_RATE_LIMIT);
    const codes = join(this.dir, `.codes-${block.line}`);
    writeFileSync(codes, '');
    const script = `cd "${this.dir}"\nsource "${SHIM}"\n${this.#filledIn(block.text, server)}\n`;
    const env: NodeJS.ProcessEnv = {
      ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('CLOCKCHECK_'))),
      NO_COLOR: '1',
      EDITOR: 'true',
      CC_DEV_BIN: DEV_BIN,
      CC_CODES: codes,
      CC_TIMEOUT: String(COMMAND_TIMEOUT_S),
      CC_CA: join(this.dir, 'ca.pem'),
      CC_RATE_LIMIT: DOCS_RATE_LIMIT_FLAG,
      CC_PLAN: directives.plan ? '1' : '',
      CC_REFERENCE: server ? '1' : '',
      CC_APPEND: directives.append,
      CC_UNTIL_LISTENING: directives.untilListening ? '1' : '',
      ...(server ? { CLOCKCHECK_TOKEN: server.token } : {}),
    };
    const result = await runProcess('bash', ['-c', script], env);
    const commands = readFileSync(codes, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [code, started, ended, ...words] = line.split(' ');
        return { code: Number(code), seconds: Number(ended) - Number(started), words: words.join(' ') };
      });
    return { commands, stdout: result.stdout, stderr: result.stderr };
  }

  /** The block's text with the reader's placeholders filled in: `VAR=...`, and `*.example.com` for the reference server. */
  #filledIn(text: string, server: ReferenceServer | null): string {
    let filled = text.replace(/\b([A-Z_][A-Z0-9_]*)=\.\.\.(?=\s|$)/g, (_, name: string) => {
      const value = name === 'CLOCKCHECK_TOKEN' ? (server?.token ?? PLACEHOLDER_TOKEN) : PLACEHOLDER_SECRET;
      return `${name}='${value}'`;
    });
    if (server) filled = filled.replace(/https:\/\/[a-z0-9.-]*example\.com\b/g, server.origin);
    return filled;
  }
}
