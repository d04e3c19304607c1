import { describe, expect, it } from 'vitest';
import { COMMANDS, type CommandModule } from '../../src/cli/main.ts';
import { EXIT_CODE_MEANINGS, EXIT_CODES } from '../../src/cli/exit-codes.ts';
import { RULES } from '../../src/contract/rules.ts';
import { DEFAULT_BUDGET } from '../../src/cli/commands/run.ts';
import { runClockcheck, type CliResult } from '../support/cli.ts';

/** No token, no colour: none of these may get as far as needing a token. */
const ENV = { PATH: process.env.PATH, NO_COLOR: '1' };
const clockcheck = (...args: string[]) => runClockcheck(args, ENV);

/** Every command with its table, loaded as `clockcheck` loads it. */
const LOADED: [string, CommandModule][] = await Promise.all(COMMANDS.map(async (c): Promise<[string, CommandModule]> => [c.name, await c.load()]));

/** A user's mistake: exit 2, exactly one line on stderr, nothing on stdout, no stack. */
function expectOneLineMistake(result: CliResult): string {
  expect(result.code, result.stderr).toBe(EXIT_CODES.usage);
  expect(result.stdout).toBe('');
  expect(result.stderr).not.toMatch(/^\s+at /m);
  expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  return result.stderr.trimEnd();
}

describe('every command declares its options once, in its table', () => {
  it('loads one table per command, named as the command', () => {
    expect(LOADED.map(([name, module]) => [name, module.spec.name])).toEqual(COMMANDS.map((c) => [c.name, c.name]));
  });

  it.each(LOADED)('%s --help lists every option and argument of its table, with its placeholder', async (name, { spec }) => {
    const result = await clockcheck(name, '--help');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.split('\n')[0]).toMatch(new RegExp(`^clockcheck ${name}( |$)`));
    const flat = result.stdout.replace(/\s+/g, ' ');
    for (const [option, declared] of Object.entries(spec.options)) {
      const placeholder = declared.kind === 'boolean' ? '' : declared.kind === 'choice' ? (declared.placeholder ?? declared.values.join('|')) : declared.placeholder;
      expect(result.stdout, `--${option}`).toMatch(new RegExp(`^ {2}--${option}\\b`, 'm'));
      if (placeholder) expect(flat, `--${option}`).toContain(`--${option} ${declared.kind === 'flag-or-value' ? `[${placeholder}]` : placeholder}`);
      expect(flat, `--${option}`).toContain(declared.help.replace(/\s+/g, ' '));
    }
    for (const positional of spec.positionals ?? []) expect(result.stdout).toMatch(new RegExp(`^ {2}${positional.name.toUpperCase()} `, 'm'));
    expect(result.stdout).toMatch(/^ {2}-h, --help /m);
  });

  it.each(LOADED)('%s: an unknown flag exits 2 with one line that suggests the flag meant', async (name, { spec }) => {
    // The longest option name, its last letter dropped: a typo with one likely meaning.
    const meant = Object.keys(spec.options).reduce((a, b) => (b.length > a.length ? b : a));
    const message = expectOneLineMistake(await clockcheck(name, `--${meant.slice(0, -1)}`));
    expect(message).toBe(`clockcheck: ${name}: unknown option --${meant.slice(0, -1)} (did you mean --${meant}?); \`clockcheck ${name} --help\` lists the options`);
  });
});

describe('clockcheck', () => {
  it('--help lists every command and every exit code', async () => {
    const result = await clockcheck('--help');
    expect(result.code).toBe(0);
    for (const command of COMMANDS) expect(result.stdout).toMatch(new RegExp(`^ {2}${command.name} +${command.summary.replace(/[()?.+*[\]]/g, '\\$&')}$`, 'm'));
    const width = Math.max(...Object.keys(EXIT_CODE_MEANINGS).map((code) => code.length));
    for (const [code, meaning] of Object.entries(EXIT_CODE_MEANINGS)) expect(result.stdout).toContain(`  ${code.padEnd(width)}  ${meaning}`);
  });

  it('help COMMAND prints that command\'s help', async () => {
    const [viaHelp, viaFlag] = await Promise.all([clockcheck('help', 'diff'), clockcheck('diff', '-h')]);
    expect(viaHelp.code).toBe(0);
    expect(viaHelp.stdout).toBe(viaFlag.stdout);
    expect(viaHelp.stdout).toMatch(/^clockcheck diff OLD NEW \[options\]\n/);
  });

  it('an unknown command exits 2 with one line that suggests the command meant, not the whole help', async () => {
    const [typo, unrelated] = await Promise.all([clockcheck('rnu', '--plan'), clockcheck('xyzzy')]);
    expect(expectOneLineMistake(typo)).toBe('clockcheck: unknown command "rnu" (did you mean "run"?); `clockcheck --help` lists the commands');
    expect(expectOneLineMistake(unrelated)).toBe('clockcheck: unknown command "xyzzy"; `clockcheck --help` lists the commands');
  });
});

describe('a bad option value names the flag and the form', () => {
  it('an integer', async () => {
    expect(expectOneLineMistake(await clockcheck('run', '--plan', '--budget', 'many'))).toBe('clockcheck: run: --budget takes an integer from 0 to 100000, not "many"');
  });

  it('a duration', async () => {
    expect(expectOneLineMistake(await clockcheck('sink', '--max-time', 'soon'))).toBe('clockcheck: sink: --max-time takes a duration above 0, such as 90s or 20m, not "soon"');
  });

  it('a choice, with "did you mean"', async () => {
    const [openapi, serve, selftest, run] = await Promise.all([
      clockcheck('openapi', '--format', 'jsn'),
      clockcheck('serve', '--dialect', 'laravle'),
      clockcheck('selftest', '--dialect', 'standart'),
      clockcheck('run', '--plan', '--format', 'test'),
    ]);
    expect(expectOneLineMistake(openapi)).toBe('clockcheck: openapi: --format is one of json, yaml, not "jsn" (did you mean "json"?)');
    expect(expectOneLineMistake(serve)).toBe('clockcheck: serve: --dialect is one of standard, alternative, laravel, bare, not "laravle" (did you mean "laravel"?)');
    expect(expectOneLineMistake(selftest)).toContain('--dialect is one of all, standard, alternative, laravel, bare, not "standart" (did you mean "standard"?)');
    expect(expectOneLineMistake(run)).toBe('clockcheck: run: --format is one of text, json, not "test" (did you mean "text"?)');
  });

  it('rules --family and --basis: an unknown name suggests the one meant', async () => {
    const [family, basis] = await Promise.all([clockcheck('rules', '--family', 'pagnation'), clockcheck('rules', '--basis', 'specs')]);
    expect(expectOneLineMistake(family)).toMatch(/^clockcheck: rules: --family is one of .*, not "pagnation" \(did you mean "pagination"\?\)$/);
    for (const name of new Set(RULES.map((r) => r.family))) expect(family.stderr).toContain(name);
    expect(expectOneLineMistake(basis)).toBe('clockcheck: rules: --basis is one of spec, profile, not "specs" (did you mean "spec"?)');
  });

  it('rules --family with a known family prints only that family\'s rules', async () => {
    const result = await clockcheck('rules', '--family', 'pagination', '--json');
    expect(result.code, result.stderr).toBe(0);
    const rules = JSON.parse(result.stdout) as { id: string; family: string }[];
    expect(rules.map((r) => r.id).sort()).toEqual(RULES.filter((r) => r.family === 'pagination').map((r) => r.id).sort());
  });
});

describe('defaults arrive resolved', () => {
  it('fuzz without --count or --format prints ten bodies as a JSON array', async () => {
    const result = await clockcheck('fuzz', 'user', '--seed', '4');
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toHaveLength(10);
  });

  it('a run plan without --budget or --rate-limit gets the defaults of its target', async () => {
    const plan = async (...args: string[]) => {
      const result = await clockcheck('run', '--plan', '--format', 'json', '--only', 'properties/user-password', ...args);
      expect(result.code, result.stderr).toBe(0);
      return JSON.parse(result.stdout) as { rateLimit: { limit: number; windowMs: number }; checks: { id: string; requests: number }[] };
    };
    const [external, embedded] = await Promise.all([plan('--target', 'https://api.example.test'), plan()]);
    expect(external.checks.find((c) => c.id === 'properties/user-password')?.requests).toBe(DEFAULT_BUDGET.external);
    expect(external.rateLimit).toEqual({ limit: 60, windowMs: 60_000 });
    expect(embedded.checks.find((c) => c.id === 'properties/user-password')?.requests).toBe(DEFAULT_BUDGET.embedded);
  });
});
