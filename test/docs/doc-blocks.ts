import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../support/cli.ts';

/** The pages whose commands are run: README.md, CONTRIBUTING.md and docs/*.md, as paths relative to the repository. */
export function docPages(): string[] {
  const docs = readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', 'CONTRIBUTING.md', ...docs];
}

/**
 * How a block is tested, from the HTML comment right before it: `<!-- docs-test: D; D -->`.
 * No comment: every command runs as written and must exit 0.
 */
export interface Directives {
  /** Not run; the reason is printed. */
  readonly skip: string | null;
  /** The exit code of every command (one code), or of each command in order. */
  readonly exit: readonly number[];
  /** `clockcheck run` gets `--plan`: nothing is sent. */
  readonly plan: boolean;
  /** Against the test's reference server: its origin for `*.example.com`, its token, its CA, its limit. */
  readonly reference: boolean;
  /** Words appended to every command, to keep it short. */
  readonly append: string;
  /** Each command runs until it prints its `listening` line, then is stopped. */
  readonly untilListening: boolean;
  /** A block of another language whose text is written to this file for the commands after it. */
  readonly file: string | null;
}

const NO_DIRECTIVES: Directives = { skip: null, exit: [0], plan: false, reference: false, append: '', untilListening: false, file: null };

/** A fenced block of a page, with its annotation and, for a shell block, its clockcheck commands. */
export interface DocBlock {
  readonly page: string;
  /** The line of the opening fence (1-based). */
  readonly line: number;
  readonly lang: string;
  readonly text: string;
  readonly annotated: boolean;
  readonly directives: Directives;
  /** Every `clockcheck …` / `npx clockcheck …` command line of a sh block (continuations joined). */
  readonly commands: readonly string[];
}

const ANNOTATION = /^<!--\s*docs-test:\s*(.*?)\s*-->\s*$/;
const FENCE = /^(```|~~~)\s*([\w-]*)\s*$/;
const SHELL_LANGS = new Set(['sh', 'bash']);

/** Parses the text of an annotation; throws on a directive it does not know. */
export function parseDirectives(text: string): Directives {
  const skip = /^skip:\s*(.+)$/.exec(text);
  if (skip) return { ...NO_DIRECTIVES, skip: skip[1]! };
  let directives: Directives = NO_DIRECTIVES;
  for (const part of text.split(';').map((p) => p.trim()).filter(Boolean)) {
    let m: RegExpExecArray | null;
    if ((m = /^exit\s+(\d+(?:\s*,\s*\d+)*)$/.exec(part))) directives = { ...directives, exit: m[1]!.split(',').map((c) => Number(c.trim())) };
    else if (part === 'plan') directives = { ...directives, plan: true };
    else if (part === 'reference') directives = { ...directives, reference: true };
    else if (part === 'until-listening') directives = { ...directives, untilListening: true };
    else if ((m = /^append:\s*(.+)$/.exec(part))) directives = { ...directives, append: m[1]! };
    else if ((m = /^file\s+([\w./-]+)$/.exec(part))) directives = { ...directives, file: m[1]! };
    else throw new Error(`unknown docs-test directive "${part}" (known: skip: REASON, exit N[,N], plan, reference, append: ARGS, until-listening, file NAME)`);
  }
  return directives;
}

/** The clockcheck command lines of a shell text: continuations joined, leading `VAR=value` assignments allowed. */
export function clockcheckCommands(text: string): string[] {
  const logical = text.replace(/\\\n\s*/g, ' ').split('\n');
  return logical
    .map((line) => line.trim())
    .filter((line) => /^(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)*(?:npx\s+)?clockcheck(?:\s|$)/.test(line));
}

/**
 * The fenced blocks of a page. An annotation must stand on the line right before a fence, so a
 * stray one (a blank line between, or no block after it) is an error, not a silently untested block.
 */
export function docBlocks(page: string): DocBlock[] {
  const lines = readFileSync(join(ROOT, page), 'utf8').split('\n');
  const blocks: DocBlock[] = [];
  let pending: { line: number; text: string } | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const annotation = ANNOTATION.exec(line);
    if (annotation) {
      if (pending) throw new Error(`${page}:${pending.line}: a docs-test annotation with no block right after it`);
      pending = { line: i + 1, text: annotation[1]! };
      continue;
    }
    const fence = FENCE.exec(line);
    if (!fence) {
      if (pending) throw new Error(`${page}:${pending.line}: a docs-test annotation must stand on the line right before its fenced block`);
      continue;
    }
    const close = lines.findIndex((l, j) => j > i && l.startsWith(fence[1]!));
    if (close === -1) throw new Error(`${page}:${i + 1}: a fenced block that never closes`);
    const lang = fence[2] ?? '';
    const text = lines.slice(i + 1, close).join('\n');
    const directives = pending ? parseDirectives(pending.text) : NO_DIRECTIVES;
    blocks.push({ page, line: i + 1, lang, text, annotated: pending !== null, directives, commands: SHELL_LANGS.has(lang) ? clockcheckCommands(text) : [] });
    pending = null;
    i = close;
  }
  if (pending) throw new Error(`${page}:${pending.line}: a docs-test annotation with no block after it`);
  return blocks;
}
