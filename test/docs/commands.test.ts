import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateTlsIdentity, type TlsIdentity } from '../../src/tls/certificate.ts';
import { docBlocks, docPages, type DocBlock } from './doc-blocks.ts';
import { DocSandbox } from './doc-sandbox.ts';

/**
 * Every `clockcheck` command of README.md, CONTRIBUTING.md and docs/*.md runs, from the sources,
 * and exits as the page says. How a block is run is the HTML comment right before it
 * (`<!-- docs-test: … -->`, CONTRIBUTING.md, "Tests"); without one it runs as written and must
 * exit 0. Pages run two at a time, each page's blocks in order in a scratch directory of its own.
 */

const pages = docPages().map((page) => ({ page, blocks: docBlocks(page) }));
/** A page's time, waiting for its turn included. */
const PAGE_TIMEOUT_MS = 300_000;

let tls: TlsIdentity;
beforeAll(async () => {
  tls = await generateTlsIdentity();
});

/** Pages run two at a time (two cores): a page's commands mostly wait for a process to start or a window to pass. */
const slots = (() => {
  let free = 2;
  const waiting: (() => void)[] = [];
  return {
    async take(): Promise<void> {
      if (free > 0) free--;
      else await new Promise<void>((resolve) => waiting.push(resolve));
    },
    give(): void {
      const next = waiting.shift();
      if (next) next();
      else free++;
    },
  };
})();

const where = (block: DocBlock) => `${block.page}:${block.line}`;

const skipped = pages.flatMap(({ blocks }) => blocks.filter((b) => b.directives.skip !== null));
const timings: string[] = [];
afterAll(() => {
  console.info(`docs-test: the slowest commands\n${timings.sort().reverse().slice(0, 12).join('\n')}`);
  for (const block of skipped) console.info(`docs-test skipped ${where(block)}: ${block.directives.skip}\n  ${block.commands.join('\n  ')}`);
});

describe('the commands of the docs', () => {
  it('annotate only blocks they can run, and give each command of a block its exit code', () => {
    for (const { blocks } of pages) {
      for (const block of blocks) {
        const { directives } = block;
        if (directives.file !== null) expect(block.commands, `${where(block)}: a file block holds no command`).toEqual([]);
        else if (block.annotated && directives.skip === null) expect(block.commands.length, `${where(block)}: an annotated block with no clockcheck command`).toBeGreaterThan(0);
        if (directives.exit.length > 1) expect(directives.exit.length, `${where(block)}: one exit code per command`).toBe(block.commands.length);
      }
    }
    expect(pages.flatMap((p) => p.blocks).filter((b) => b.commands.length > 0).length).toBeGreaterThan(20);
  });

  for (const { page, blocks } of pages) {
    const runnable = blocks.filter((b) => b.directives.skip === null && (b.commands.length > 0 || b.directives.file !== null));
    if (runnable.every((b) => b.commands.length === 0)) continue;

    it.concurrent(`${page}: every command exits as the page says`, async ({ expect }) => {
      await slots.take();
      const sandbox = new DocSandbox(page, blocks, tls);
      try {
        await sandbox.open();
        for (const block of runnable) {
          if (block.directives.file !== null) {
            sandbox.writeFile(block);
            continue;
          }
          const result = await sandbox.run(block);
          const expected = block.commands.map((_, i) => block.directives.exit[block.directives.exit.length === 1 ? 0 : i]);
          const ran = result.commands.map((c) => c.code);
          const story = [
            `${where(block)}`,
            ...block.commands.map((c, i) => `  ${c}\n    ran: ${result.commands[i]?.words ?? '(not run)'}\n    exit ${ran[i] ?? '-'}, expected ${expected[i]}`),
            `stdout: ${result.stdout.slice(-2500)}`,
            `stderr: ${result.stderr.slice(-2500)}`,
          ].join('\n');
          for (const c of result.commands) timings.push(`${c.seconds.toFixed(1).padStart(6)} s  ${where(block)}  ${c.words}`);
          expect.soft(ran, story).toEqual(expected);
        }
      } finally {
        await sandbox.close();
        slots.give();
      }
    }, PAGE_TIMEOUT_MS);
  }

  for (const block of skipped) it.skip(`${where(block)} skipped: ${block.directives.skip}`, () => {});
});
