import { describe, expect, expectTypeOf, it } from 'vitest';
import { ClockcheckError, InternalError, UsageError } from '../../src/errors.ts';
import { commandHelp } from '../../src/input/command-help.ts';
import { parseCommandLine } from '../../src/input/options.ts';
import { defineCommand, type CommandSpec } from '../../src/input/option-table.ts';

/** A table with one option of every kind, as a command declares it. */
const DEMO = defineCommand({
  name: 'demo',
  description: 'Does a demonstration.\nA second line of prose, kept as written.',
  options: {
    target: { kind: 'string', placeholder: 'URL', help: 'where to go' },
    'report-dir': { kind: 'string', placeholder: 'DIR', default: 'reports', help: 'where reports go' },
    budget: { kind: 'integer', placeholder: 'N', min: 0, max: 100_000, default: 110, help: 'generated cases in all' },
    seed: { kind: 'integer', placeholder: 'N', min: 0, max: 99, defaultHelp: 'random', help: 'the seed' },
    'max-time': { kind: 'duration', placeholder: 'DURATION', help: "the run's time limit" },
    wait: { kind: 'duration', placeholder: 'DURATION', min: 1000, max: 300_000, default: 10_000, help: 'how long to wait' },
    format: { kind: 'choice', values: ['text', 'json', 'markdown'], default: 'text', help: 'how to print' },
    basis: { kind: 'choice', values: ['spec', 'profile'], placeholder: 'BASIS', help: 'which rules' },
    only: { kind: 'list', placeholder: 'NAME', help: 'only these' },
    versions: { kind: 'list', placeholder: 'LABEL', default: ['v2'], help: 'the versions' },
    fault: { kind: 'repeatable', placeholder: 'NAME', help: 'a fault to switch on' },
    quiet: { kind: 'boolean', short: 'q', help: 'say less' },
    invalid: { kind: 'flag-or-value', placeholder: 'RULE', takes: (word) => word !== 'user', help: 'only invalid cases' },
    'rate-limit': {
      kind: 'parsed',
      placeholder: 'LIMIT/WINDOW',
      default: '60/60s',
      parse: (text) => {
        const match = /^(\d+)\/(\d+)s$/.exec(text);
        if (!match) throw new Error(`"${text}" is not LIMIT/WINDOW`);
        return { limit: Number(match[1]), windowMs: Number(match[2]) * 1000 };
      },
      help: "the target's limit",
    },
  },
  positionals: [
    { name: 'old', required: true, help: 'the earlier report' },
    { name: 'new', help: 'the later report' },
  ],
});

const NEEDS_TARGET = defineCommand({
  name: 'init',
  description: 'Writes a profile.',
  options: { target: { kind: 'string', placeholder: 'https://host[:port]', required: true, help: "the spec's {base_url}" } },
});

function parse(argv: string[]) {
  const line = parseCommandLine(DEMO, argv);
  if (line.help) throw new Error('expected options, got a help request');
  return line;
}

/** The UsageError parsing argv throws, as its one-line message. */
function usageError(spec: CommandSpec, argv: string[]): string {
  try {
    parseCommandLine(spec, argv);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    expect((error as ClockcheckError).code).toBe('CLOCKCHECK_USAGE');
    const message = (error as Error).message;
    expect(message).not.toContain('\n');
    return message;
  }
  throw new Error(`parsing ${argv.join(' ')} did not throw`);
}

describe('parseCommandLine', () => {
  it('fills in every default when no option is given, and leaves options without one undefined', () => {
    const { options, args } = parse(['a.json']);
    expect(options).toEqual({
      target: undefined,
      'report-dir': 'reports',
      budget: 110,
      seed: undefined,
      'max-time': undefined,
      wait: 10_000,
      format: 'text',
      basis: undefined,
      only: [],
      versions: ['v2'],
      fault: [],
      quiet: false,
      invalid: false,
      'rate-limit': { limit: 60, windowMs: 60_000 },
    });
    expect(args).toEqual({ old: 'a.json', new: undefined });
  });

  it('reads --name value, --name=value and a short alias', () => {
    const { options } = parse(['a', '--target', 'https://x.test', '--budget=7', '-q']);
    expect(options.target).toBe('https://x.test');
    expect(options.budget).toBe(7);
    expect(options.quiet).toBe(true);
  });

  it('converts each kind: integers, durations to milliseconds, choices, parsed values', () => {
    const { options } = parse(['a', '--seed', '0', '--max-time', '20m', '--wait', '1500ms', '--format', 'json', '--rate-limit', '30/10s']);
    expect(options.seed).toBe(0);
    expect(options['max-time']).toBe(1_200_000);
    expect(options.wait).toBe(1500);
    expect(options.format).toBe('json');
    expect(options['rate-limit']).toEqual({ limit: 30, windowMs: 10_000 });
  });

  it('splits a list at commas over every occurrence, and keeps one repeatable value per occurrence', () => {
    const { options } = parse(['a', '--only', 'auth, users', '--only', 'rate-limit,', '--fault', 'x,y', '--fault', 'z', '--versions', 'v3']);
    expect(options.only).toEqual(['auth', 'users', 'rate-limit']);
    expect(options.fault).toEqual(['x,y', 'z']);
    expect(options.versions).toEqual(['v3']);
  });

  it('takes the last value of a single-valued option given twice, as util.parseArgs does', () => {
    expect(parse(['a', '--budget', '1', '--budget', '2']).options.budget).toBe(2);
  });

  it('reads positionals by name wherever they stand, and every word after -- as one', () => {
    expect(parse(['--quiet', 'a', '--budget', '3', 'b']).args).toEqual({ old: 'a', new: 'b' });
    expect(parse(['--', '--not-an-option', '-q']).args).toEqual({ old: '--not-an-option', new: '-q' });
    expect(parse(['a', '--target', '-']).options.target).toBe('-');
  });

  it('gives a flag-or-value option true alone, its value with = or as the next word it takes', () => {
    expect(parse(['a', '--invalid']).options.invalid).toBe(true);
    expect(parse(['a', '--invalid', '--quiet']).options.invalid).toBe(true);
    expect(parse(['a', '--invalid=USR-1']).options.invalid).toBe('USR-1');
    expect(parse(['a', '--invalid', 'USR-1']).options.invalid).toBe('USR-1');
    // `takes` refuses "user": it stays a positional.
    const refused = parse(['--invalid', 'user']);
    expect(refused.options.invalid).toBe(true);
    expect(refused.args.old).toBe('user');
  });

  it('answers --help or -h before checking anything else', () => {
    expect(parseCommandLine(DEMO, ['--budget', 'lots', '--nope', '--help'])).toEqual({ help: true });
    expect(parseCommandLine(DEMO, ['-h'])).toEqual({ help: true });
    expect(parseCommandLine(NEEDS_TARGET, ['--help'])).toEqual({ help: true });
    // After --, -h is a word like any other.
    expect(parseCommandLine(DEMO, ['--', '-h']).help).toBe(false);
  });

  it('types the result from the table, with no casts', () => {
    const { options, args } = parse(['a']);
    expectTypeOf(options.target).toEqualTypeOf<string | undefined>();
    expectTypeOf(options['report-dir']).toEqualTypeOf<string>();
    expectTypeOf(options.budget).toEqualTypeOf<number>();
    expectTypeOf(options.seed).toEqualTypeOf<number | undefined>();
    expectTypeOf(options.wait).toEqualTypeOf<number>();
    expectTypeOf(options.format).toEqualTypeOf<'text' | 'json' | 'markdown'>();
    expectTypeOf(options.basis).toEqualTypeOf<'spec' | 'profile' | undefined>();
    expectTypeOf(options.only).toEqualTypeOf<string[]>();
    expectTypeOf(options.quiet).toEqualTypeOf<boolean>();
    expectTypeOf(options.invalid).toEqualTypeOf<boolean | string>();
    expectTypeOf(options['rate-limit']).toEqualTypeOf<{ limit: number; windowMs: number }>();
    expectTypeOf(args.old).toEqualTypeOf<string>();
    expectTypeOf(args.new).toEqualTypeOf<string | undefined>();
    const init = parseCommandLine(NEEDS_TARGET, ['--target', 'https://x.test']);
    if (!init.help) expectTypeOf(init.options.target).toEqualTypeOf<string>();
  });
});

describe('parseCommandLine refuses with one line naming the command and the flag', () => {
  it('an unknown flag, with "did you mean" for a likely typo and where the options are listed', () => {
    expect(usageError(DEMO, ['a', '--bugdet', '5'])).toBe('demo: unknown option --bugdet (did you mean --budget?); `clockcheck demo --help` lists the options');
    expect(usageError(DEMO, ['a', '--report-dri=x'])).toContain('(did you mean --report-dir?)');
    expect(usageError(DEMO, ['a', '-budget', '5'])).toContain('unknown option -budget (did you mean --budget?)');
    expect(usageError(DEMO, ['a', '--completely-else'])).toBe('demo: unknown option --completely-else; `clockcheck demo --help` lists the options');
    expect(usageError(DEMO, ['a', '-x'])).toBe('demo: unknown option -x; `clockcheck demo --help` lists the options');
  });

  it('a missing value, at the end or before another option', () => {
    expect(usageError(DEMO, ['a', '--target'])).toBe('demo: --target needs a value: --target URL');
    expect(usageError(DEMO, ['a', '--budget', '--quiet'])).toBe('demo: --budget needs a value: --budget N (an integer from 0 to 100000)');
    expect(usageError(DEMO, ['a', '--format'])).toBe('demo: --format needs a value: --format text|json|markdown');
  });

  it('a value given to a boolean', () => {
    expect(usageError(DEMO, ['a', '--quiet=yes'])).toBe('demo: --quiet takes no value (--quiet, not --quiet=yes)');
  });

  it('an integer that is not one, or out of range', () => {
    for (const text of ['x', '1.5', '1e3', '0x10', '', '100001', '-1']) {
      expect(usageError(DEMO, ['a', '--budget', text])).toBe(`demo: --budget takes an integer from 0 to 100000, not "${text}"`);
    }
  });

  it('a duration that is malformed, zero, or out of its bounds', () => {
    expect(usageError(DEMO, ['a', '--max-time', 'soon'])).toBe('demo: --max-time takes a duration above 0, such as 90s or 20m, not "soon"');
    expect(usageError(DEMO, ['a', '--max-time', '0s'])).toContain('not "0s"');
    expect(usageError(DEMO, ['a', '--wait', '6m'])).toBe('demo: --wait takes a duration from 1s to 5m, such as 90s or 20m, not "6m"');
    expect(usageError(DEMO, ['a', '--wait', '999ms'])).toContain('not "999ms"');
  });

  it('a choice not among the values, with "did you mean" when one is close', () => {
    expect(usageError(DEMO, ['a', '--format', 'jsno'])).toBe('demo: --format is one of text, json, markdown, not "jsno" (did you mean "json"?)');
    expect(usageError(DEMO, ['a', '--format', 'html'])).toBe('demo: --format is one of text, json, markdown, not "html"');
  });

  it('a parsed value its parser refuses, with the parser\'s reason', () => {
    expect(usageError(DEMO, ['a', '--rate-limit', 'lots'])).toBe('demo: --rate-limit: "lots" is not LIMIT/WINDOW');
  });

  it('a required option not given', () => {
    expect(usageError(NEEDS_TARGET, [])).toBe("init: --target https://host[:port] is required (the spec's {base_url})");
  });

  it('a required argument missing, and one argument too many', () => {
    expect(usageError(DEMO, [])).toBe('demo: OLD is missing (the earlier report)');
    expect(usageError(DEMO, ['a', 'b', 'c'])).toBe('demo: unexpected argument "c"; `clockcheck demo` takes OLD [NEW]');
    expect(usageError(NEEDS_TARGET, ['--target', 'https://x.test', 'stray'])).toBe('init: unexpected argument "stray"; `clockcheck init` takes no arguments');
  });
});

describe('defineCommand', () => {
  const base = { name: 'bad', description: '' };

  it('returns the table as declared', () => {
    expect(DEMO.options.budget).toEqual({ kind: 'integer', placeholder: 'N', min: 0, max: 100_000, default: 110, help: 'generated cases in all' });
  });

  it('refuses a table the parser could not serve, as a bug of the command', () => {
    const refusals: [string, () => unknown][] = [
      ['a choice default not among its values', () => defineCommand({ ...base, options: { format: { kind: 'choice', values: ['a', 'b'], default: 'c', help: '' } } })],
      ['an option named help', () => defineCommand({ ...base, options: { help: { kind: 'boolean', help: '' } } })],
      ['a short alias taken by --help', () => defineCommand({ ...base, options: { host: { kind: 'boolean', short: 'h', help: '' } } })],
      ['one short alias for two options', () => defineCommand({ ...base, options: { a: { kind: 'boolean', short: 'x', help: '' }, b: { kind: 'boolean', short: 'x', help: '' } } })],
      ['a parsed default its parser refuses', () => defineCommand({ ...base, options: { a: { kind: 'parsed', placeholder: 'A', default: 'x', parse: () => { throw new Error('no'); }, help: '' } } })],
      ['a required option with a default', () => defineCommand({ ...base, options: { a: { kind: 'string', placeholder: 'A', required: true, default: 'x', help: '' } } })],
      ['a required argument after an optional one', () => defineCommand({ ...base, options: {}, positionals: [{ name: 'a', help: '' }, { name: 'b', required: true, help: '' }] })],
    ];
    for (const [what, define] of refusals) expect(define, what).toThrow(InternalError);
  });
});

describe('commandHelp', () => {
  const help = commandHelp(DEMO);
  const lines = help.split('\n');

  it('starts with the usage line: required options and arguments by name, the rest as [options]', () => {
    expect(lines[0]).toBe('clockcheck demo OLD [NEW] [options]');
    expect(commandHelp(NEEDS_TARGET).split('\n')[0]).toBe('clockcheck init --target https://host[:port] [options]');
  });

  it('keeps the description as written, after the usage line', () => {
    expect(help).toContain('\n\nDoes a demonstration.\nA second line of prose, kept as written.\n\n');
  });

  it('lists every argument and every option of the table with its placeholder and help, and --help', () => {
    expect(help).toMatch(/^ {2}OLD {2}the earlier report$/m);
    expect(help).toMatch(/^ {2}NEW {2}the later report \[optional\]$/m);
    for (const [name, option] of Object.entries(DEMO.options)) {
      const line = lines.find((l) => l.includes(`--${name} `) || l.endsWith(`--${name}`));
      expect(line, name).toBeDefined();
      if ('placeholder' in option && option.placeholder !== undefined) expect(line, name).toContain(`--${name}${option.kind === 'flag-or-value' ? ' [' : ' '}${option.placeholder}`);
      expect(help.replace(/\s+/g, ' '), name).toContain(option.help);
    }
    expect(help).toMatch(/^ {2}-h, --help +print this help$/m);
    expect(help).toMatch(/^ {2}-q, --quiet +say less$/m);
  });

  it('shows each default as the user would type it, or as the table describes it', () => {
    const flat = help.replace(/\s+/g, ' ');
    expect(flat).toContain('--budget N generated cases in all [default: 110]');
    expect(flat).toContain('--seed N the seed [default: random]');
    expect(flat).toContain('--wait DURATION how long to wait [default: 10s]');
    expect(flat).toContain('--rate-limit LIMIT/WINDOW the target\'s limit [default: 60/60s]');
    expect(flat).toContain('--format text|json|markdown how to print [default: text]');
    expect(flat).toContain('--basis BASIS which rules [one of: spec, profile]');
    expect(flat).toContain('--only NAME only these [comma-separated; repeatable]');
    expect(flat).toContain('--versions LABEL the versions [comma-separated; repeatable; default: v2]');
    expect(flat).toContain('--fault NAME a fault to switch on [repeatable]');
    expect(flat).toContain('--invalid [RULE] only invalid cases');
    expect(commandHelp(NEEDS_TARGET)).toContain("the spec's {base_url} [required]");
  });

  it('aligns every help line in one column, within 100 columns', () => {
    const options = lines.slice(lines.indexOf('Options:') + 1);
    const starts = new Set(options.filter((l) => /^ {2}-/.test(l)).map((l) => /^ {2}\S.*?\S {2,}(?=\S)/.exec(l)?.[0].length));
    expect(starts.size).toBe(1);
    for (const line of lines.filter((l) => !l.startsWith('A second') && !l.startsWith('Does'))) expect(line.length, line).toBeLessThanOrEqual(100);
  });

  it('puts the help of a flag too wide for the column on the line below it', () => {
    const wide = defineCommand({
      name: 'wide',
      description: '',
      options: {
        dialect: { kind: 'choice', values: ['all', 'standard', 'alternative', 'laravel', 'another-one'], help: 'the dialect' },
        port: { kind: 'integer', placeholder: 'N', min: 0, max: 9, help: 'the port' },
      },
    });
    const text = commandHelp(wide);
    expect(text).toContain('  --dialect all|standard|alternative|laravel|another-one\n              the dialect\n');
    expect(text).toContain('  --port N    the port\n');
  });
});
