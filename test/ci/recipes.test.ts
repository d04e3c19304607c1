import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { renderJsonReport } from '../../src/report/json-reporter.ts';
import { sampleReport } from '../report/sample-report.ts';
import { DEV_BIN, ROOT } from '../support/cli.ts';

const exec = promisify(execFile);
const TARGET = 'https://api.example.test';

interface GithubStep {
  readonly name?: string;
  readonly uses?: string;
  readonly run?: string;
  readonly env?: Record<string, string>;
  readonly with?: Record<string, unknown>;
}

function recipe(name: string): { text: string; yaml: any } {
  const text = readFileSync(join(ROOT, 'docs/ci', name), 'utf8');
  return { text, yaml: parse(text, { uniqueKeys: true, strict: true }) };
}

/** Splits a shell command line into words: single and double quotes, no expansion. */
function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | null = null;
  let quote: '"' | "'" | null = null;
  for (const ch of line) {
    if (quote) {
      if (ch === quote) quote = null;
      else word = (word ?? '') + ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      word ??= '';
    } else if (/\s/.test(ch)) {
      if (word !== null) words.push(word);
      word = null;
    } else word = (word ?? '') + ch;
  }
  if (word !== null) words.push(word);
  return words;
}

/** Every `npx clockcheck ...` of a script, up to the end of its line, a pipe or an `||`. */
function clockcheckLines(script: string): string[] {
  return [...script.matchAll(/npx clockcheck ([^\n|]*)/g)].map((m) => m[1]!.trim());
}

/** GitHub expressions as Actions would fill them in; a conditional one takes its non-empty branch (more options to check). */
function githubExpressions(script: string): string {
  return script.replace(/\$\{\{\s*[^}]*&&\s*'([^']*)'\s*\|\|\s*''\s*\}\}/g, '$1').replace(/\$\{\{\s*vars\.API_BASE_URL\s*\}\}/g, TARGET);
}

/** The shell variables of a line filled in from `values`, then split into words. */
function filledIn(line: string, values: Record<string, string>): string[] {
  return shellWords(line.replace(/\$([A-Za-z_]+)/g, (_, name: string) => values[name] ?? `$${name}`));
}

describe('the CI recipes of docs/ci', () => {
  let work: string;
  let runDir: string;
  let baseline: string;

  beforeAll(async () => {
    // A repository as the recipes expect one: a profile, a baseline report, and a run's report directory.
    work = await mkdtemp(join(tmpdir(), 'clockcheck-recipes-'));
    await writeFile(join(work, 'clockcheck.profile.yaml'), 'fixtures:\n  active_user_ids: [1, 2, 3]\n  break_rule_id: 1\n');
    const report = renderJsonReport(sampleReport());
    await mkdir(join(work, '.clockcheck'));
    baseline = join(work, '.clockcheck/baseline.json');
    await writeFile(baseline, report);
    runDir = join(work, 'reports/2026-11-23T00-00-00-000Z-1');
    await mkdir(runDir, { recursive: true });
    await writeFile(join(runDir, 'report.json'), report);
  });

  /** Runs `clockcheck ...words` the way the recipe does, but dry: `run` with --plan (sends nothing), `diff` on real reports. */
  async function dryRun(words: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    const [command, ...rest] = words;
    const args = command === 'run' ? ['run', ...rest, '--plan'] : [command!, ...rest];
    try {
      const { stdout, stderr } = await exec(process.execPath, [DEV_BIN, ...args], { cwd: work, env: { ...process.env, CLOCKCHECK_TOKEN: '' }, timeout: 60_000 });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const e = error as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  }

  async function expectEveryCommandExists(scripts: string[], values: Record<string, string>): Promise<string[]> {
    const lines = scripts.map(githubExpressions).flatMap(clockcheckLines);
    const commands: string[] = [];
    for (const line of lines) {
      const words = filledIn(line, { ...values, run_dir: runDir });
      expect(['run', 'diff'], line).toContain(words[0]);
      const result = await dryRun(words);
      // 0 or 1 (a diff that finds a regression); 2 would be misuse: an option or a command that does not exist.
      expect([0, 1], `clockcheck ${words.join(' ')}\n${result.stderr}`).toContain(result.code);
      if (words[0] === 'run') expect(result.stdout).toMatch(/^plan: https:\/\/api\.example\.test/);
      if (words[0] === 'diff') expect(result.stdout).toMatch(/REGRESSION/);
      commands.push(words[0]!);
    }
    return commands;
  }

  it('GitHub Actions: parses, reads the token from the secret store, uploads the reports, publishes junit.xml', async () => {
    const { text, yaml } = recipe('github-actions.yml');
    const steps = yaml.jobs.certify.steps as GithubStep[];
    const certify = steps.find((s) => s.run?.includes('npx clockcheck run'))!;
    expect(certify.env?.CLOCKCHECK_TOKEN).toBe('${{ secrets.CLOCKCHECK_TOKEN }}');
    expect(text.match(/CLOCKCHECK_TOKEN:/g)).toHaveLength(1);
    const upload = steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'))!;
    expect(upload.with?.path).toBe('reports/');
    const junit = steps.find((s) => s.with?.report_paths !== undefined)!;
    expect(junit.with?.report_paths).toBe('reports/*/junit.xml');
    for (const step of [upload, junit, steps.at(-1)!]) expect((step as { if?: string }).if).toBe('always()');
    const commands = await expectEveryCommandExists(steps.flatMap((s) => (s.run ? [s.run] : [])), {});
    expect(commands).toEqual(['run', 'diff']);
  }, 120_000);

  it('GitLab CI: parses, reads the token from a CI/CD variable, keeps the reports and the JUnit report', async () => {
    const { text, yaml } = recipe('gitlab-ci.yml');
    const job = yaml.clockcheck;
    expect(text).not.toMatch(/CLOCKCHECK_TOKEN:/); // a masked project variable, never written in the file
    expect(job.artifacts.when).toBe('always');
    expect(job.artifacts.paths).toContain('reports/');
    expect(job.artifacts.reports.junit).toBe('reports/*/junit.xml');
    const values = { API_BASE_URL: TARGET, CLOCKCHECK_WITHIN: job.variables.CLOCKCHECK_WITHIN as string };
    const commands = await expectEveryCommandExists(job.script as string[], values);
    expect(commands).toEqual(['run', 'diff']);
  }, 120_000);

  it('their shell scripts are valid bash (bash -n)', async () => {
    const github = (recipe('github-actions.yml').yaml.jobs.certify.steps as GithubStep[]).flatMap((s) => (s.run ? [githubExpressions(s.run)] : []));
    const gitlab = [(recipe('gitlab-ci.yml').yaml.clockcheck.script as string[]).join('\n')];
    for (const script of [...github, ...gitlab]) await expect(exec('bash', ['-n', '-c', script])).resolves.toBeDefined();
    await expect(exec('bash', ['-n', '-c', 'if [ -f x ]; then echo'])).rejects.toThrow();
  });

  it('is a real check: a recipe line with an option clockcheck does not have fails it', async () => {
    const result = await dryRun(filledIn('run --target "$API_BASE_URL" --profile clockcheck.profile.yaml --whitin 6m', { API_BASE_URL: TARGET }));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/whitin/);
  });
});
