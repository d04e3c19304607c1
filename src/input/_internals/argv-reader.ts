import { UsageError } from '../../errors.ts';
import { didYouMean } from '../../did-you-mean.ts';
import type { CommandSpec, OptionSpec } from '../option-table.ts';
import { expectedForm } from './expected-form.ts';

/** What argv gave, before conversion: each option's occurrences (true for a bare flag), in order, and the other words. */
export interface ReadArgv {
  readonly help: boolean;
  readonly given: ReadonlyMap<string, readonly (string | true)[]>;
  readonly positionals: readonly string[];
}

/**
 * A word that is an option (or `--`), not a value: a dash and something more. `-` alone (stdin) and a
 * negative number are values: no option name starts with a digit.
 */
const isOptionLike = (word: string): boolean => /^-[^\d]/.test(word);

/**
 * Splits argv into options and positionals by the table. `--help` or `-h` anywhere before `--`
 * wins: nothing else is checked, so `clockcheck run --budget x --help` still prints the help.
 */
export function readArgv(spec: CommandSpec, argv: readonly string[]): ReadArgv {
  const end = argv.indexOf('--');
  const options = end < 0 ? argv : argv.slice(0, end);
  if (options.some((word) => word === '--help' || word === '-h' || word.startsWith('--help='))) return { help: true, given: new Map(), positionals: [] };
  const given = new Map<string, (string | true)[]>();
  const positionals: string[] = [];
  for (let i = 0; i < options.length; i++) {
    const word = options[i] as string;
    if (!isOptionLike(word)) {
      positionals.push(word);
      continue;
    }
    const { name, inline } = optionWord(spec, word);
    const option = spec.options[name] as OptionSpec;
    const next = options[i + 1];
    let value: string | true;
    if (inline !== undefined) {
      if (option.kind === 'boolean') throw new UsageError(`${spec.name}: --${name} takes no value (--${name}, not ${word})`);
      value = inline;
    } else if (option.kind === 'boolean') {
      value = true;
    } else if (option.kind === 'flag-or-value') {
      const takes = next !== undefined && !isOptionLike(next) && (option.takes?.(next) ?? true);
      value = takes ? (next as string) : true;
      if (takes) i++;
    } else {
      if (next === undefined || isOptionLike(next)) throw new UsageError(`${spec.name}: --${name} needs a value: ${valueForm(name, option)}`);
      value = next;
      i++;
    }
    given.set(name, [...(given.get(name) ?? []), value]);
  }
  if (end >= 0) positionals.push(...argv.slice(end + 1));
  return { help: false, given, positionals };
}

/** The option a word names (`--name`, `--name=value`, `-x`), or a UsageError with "did you mean". */
function optionWord(spec: CommandSpec, word: string): { name: string; inline?: string } {
  const names = Object.keys(spec.options);
  if (word.startsWith('--')) {
    const eq = word.indexOf('=');
    const name = eq < 0 ? word.slice(2) : word.slice(2, eq);
    if (Object.hasOwn(spec.options, name)) return eq < 0 ? { name } : { name, inline: word.slice(eq + 1) };
    throw unknownOption(spec, `--${name}`, didYouMean(name, [...names, 'help']));
  }
  const named = names.find((name) => spec.options[name]?.short === word.slice(1));
  if (named !== undefined) return { name: named };
  // `-budget`: a long name with one dash is most likely meant as one.
  throw unknownOption(spec, word, word.length > 2 ? didYouMean(word.slice(1), names) : undefined);
}

function unknownOption(spec: CommandSpec, word: string, hint: string | undefined): UsageError {
  return new UsageError(`${spec.name}: unknown option ${word}${hint ? ` (did you mean --${hint}?)` : ''}; \`clockcheck ${spec.name} --help\` lists the options`);
}

/** How to give an option its value: `--budget N (an integer from 0 to 100000)`, `--format text|json`. */
function valueForm(name: string, option: Exclude<OptionSpec, { kind: 'boolean' }>): string {
  if (option.kind === 'choice') return `--${name} ${option.placeholder ?? option.values.join('|')}${option.placeholder ? ` (${expectedForm(option)})` : ''}`;
  const form = option.kind === 'integer' || option.kind === 'duration' ? ` (${expectedForm(option)})` : '';
  return `--${name} ${option.placeholder}${form}`;
}
