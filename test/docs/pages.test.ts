import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT_CODE_MEANINGS } from '../../src/cli/exit-codes.ts';
import { parseProfile } from '../../src/profile/profile.ts';
import { ROOT } from '../support/cli.ts';
import { docBlocks, docPages } from './doc-blocks.ts';

const read = (page: string) => readFileSync(join(ROOT, page), 'utf8');

/** A page's text without its fenced blocks: where its headings are. */
function withoutFences(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
}

/** A page's text without fenced blocks and inline code: where its links are. */
function prose(text: string): string {
  return withoutFences(text).replace(/`[^`\n]*`/g, '');
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to dashes. */
export function headingSlug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a page's headings, with GitHub's -1, -2 for repeated ones. */
function anchorsOf(page: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const m of withoutFences(read(page)).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const slug = headingSlug(m[1]!);
    const n = seen.get(slug) ?? 0;
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
    seen.set(slug, n + 1);
  }
  return anchors;
}

/** Every relative link of a page, `[text](target)`, outside code. */
function relativeLinks(page: string): string[] {
  return [...prose(read(page)).matchAll(/\[[^\]]*\]\(([^)\s]+)\)/g)]
    .map((m) => m[1]!)
    .filter((target) => !/^[a-z][a-z+.-]*:/i.test(target));
}

const LINKED_PAGES = [...docPages(), 'ARCHITECTURE.md'];

describe('the README', () => {
  const readme = read('README.md');
  const lines = readme.split('\n');

  it('is one screen: at most 150 lines', () => {
    expect(readme.endsWith('\n') ? lines.length - 1 : lines.length).toBeLessThanOrEqual(150);
  });

  it('reaches "Certify your server" within its first 40 lines', () => {
    const at = lines.findIndex((line) => /^#{1,3}\s+Certify your server\s*$/.test(line));
    expect(at).toBeGreaterThanOrEqual(0);
    expect(at + 1).toBeLessThanOrEqual(40);
  });

  it('links the spec inside the repository', () => {
    expect(relativeLinks('README.md')).toContain('spec/time-tracking-public-api.md');
  });

  it('links every page of docs/', () => {
    const linked = new Set(relativeLinks('README.md').map((link) => link.split('#')[0]));
    for (const page of docPages().filter((p) => p.startsWith('docs/'))) expect(linked, `README.md links ${page}`).toContain(page);
  });
});

describe('the links of README.md, CONTRIBUTING.md, ARCHITECTURE.md and docs/*.md', () => {
  it.each(LINKED_PAGES)('%s: every relative link names a file that exists, and a heading of it', (page) => {
    const broken: string[] = [];
    for (const link of relativeLinks(page)) {
      const [path, anchor] = link.split('#') as [string, string | undefined];
      const target = path === '' ? join(ROOT, page) : join(ROOT, dirname(page), decodeURIComponent(path));
      if (!existsSync(target)) {
        broken.push(`${link}: no ${relative(ROOT, target)}`);
        continue;
      }
      if (anchor === undefined) continue;
      const file = relative(ROOT, target);
      if (statSync(target).isDirectory() || !file.endsWith('.md')) broken.push(`${link}: an anchor into ${file}, which has no headings`);
      else if (!anchorsOf(file).has(anchor)) broken.push(`${link}: ${file} has no heading #${anchor} (it has ${[...anchorsOf(file)].join(', ')})`);
    }
    expect(broken).toEqual([]);
  });

  it('checks anchors as GitHub writes them', () => {
    expect(headingSlug('`clockcheck diff`')).toBe('clockcheck-diff');
    expect(headingSlug("The notification form is the profile's")).toBe('the-notification-form-is-the-profiles');
    expect(headingSlug('regressions.yaml')).toBe('regressionsyaml');
    expect(headingSlug('A dead, stalling or flooding target')).toBe('a-dead-stalling-or-flooding-target');
  });
});

describe('what the docs state, held to the code', () => {
  const normalized = (text: string) => text.replace(/`/g, '');

  it.each(['README.md', 'docs/exit-codes.md'])('%s gives each exit code the meaning of src/cli/exit-codes.ts', (page) => {
    const text = normalized(read(page));
    for (const [code, meaning] of Object.entries(EXIT_CODE_MEANINGS)) expect(text, `exit ${code}`).toContain(`| ${code} | ${normalized(meaning)} |`);
  });

  it('docs/profiles.md shows every key as a profile clockcheck reads', () => {
    const yaml = docBlocks('docs/profiles.md').filter((b) => b.lang === 'yaml');
    expect(yaml.length).toBeGreaterThan(0);
    for (const block of yaml) expect(() => parseProfile(block.text, `docs/profiles.md:${block.line}`)).not.toThrow();
  });

  it.each(docPages())('%s names only paths of the repository that exist', (page) => {
    const named = [...read(page).matchAll(/`((?:src|test|docs|scripts|bench|suites|fixtures|spec|bin|\.ci)\/[^`\s]*)`/g)].map((m) => m[1]!);
    const missing = named
      .filter((path) => !/[<*]|[A-Z]{4,}/.test(path)) // placeholders: reports/<run-id>/, NAME.test.ts
      .filter((path) => !existsSync(join(ROOT, path.replace(/[.,:;)]+$/, ''))));
    expect(missing).toEqual([]);
  });

  it('every page of docs/ says first when to read it', () => {
    for (const page of docPages().filter((p) => p.startsWith('docs/') && p !== 'docs/scenario-format.md')) {
      const firstParagraph = read(page).split('\n\n')[1] ?? '';
      expect(firstParagraph, page).toMatch(/^Read this when /);
    }
  });
});
