import { parseDuration } from '../../duration.ts';
import { UsageError } from '../../errors.ts';
import { didYouMean } from '../../did-you-mean.ts';
import type { CommandSpec, OptionSpec } from '../option-table.ts';
import { expectedForm } from './expected-form.ts';

type Occurrences = readonly (string | true)[];

/** Every option of the table resolved from what argv gave: converted to its kind, or its default. */
export function resolveOptions(spec: CommandSpec, given: ReadonlyMap<string, Occurrences>): Record<string, unknown> {
  const resolved: Record<string, unknown> = {};
  for (const [name, option] of Object.entries(spec.options)) resolved[name] = resolveOption(spec, name, option, given.get(name) ?? []);
  return resolved;
}

function resolveOption(spec: CommandSpec, name: string, option: OptionSpec, occurrences: Occurrences): unknown {
  const texts = occurrences.filter((o): o is string => o !== true);
  switch (option.kind) {
    case 'boolean':
      return occurrences.length > 0;
    case 'list':
      if (texts.length === 0) return [...(option.default ?? [])];
      return texts.flatMap((text) => text.split(',')).map((item) => item.trim()).filter(Boolean);
    case 'repeatable':
      return texts;
    case 'flag-or-value':
      return occurrences.at(-1) ?? false;
  }
  // A single value: the last occurrence wins, as with util.parseArgs.
  const text = texts.at(-1);
  if (text !== undefined) return convert(spec, name, option, text);
  if (option.required) {
    throw new UsageError(`${spec.name}: --${name} ${option.placeholder ?? expectedForm(option)} is required (${option.help})`);
  }
  if (option.kind === 'parsed' && option.default !== undefined) return convert(spec, name, option, option.default);
  return option.default;
}

/** One value converted to its option's kind, or a UsageError naming the command, the flag and the form. */
function convert(spec: CommandSpec, name: string, option: Exclude<OptionSpec, { kind: 'boolean' | 'list' | 'repeatable' | 'flag-or-value' }>, text: string): unknown {
  const wrong = (form: string) => new UsageError(`${spec.name}: --${name} ${form}, not "${text}"`);
  switch (option.kind) {
    case 'string':
      return text;
    case 'integer': {
      const value = /^-?\d+$/.test(text) ? Number(text) : NaN;
      if (!(value >= option.min && value <= option.max)) throw wrong(`takes ${expectedForm(option)}`);
      return value;
    }
    case 'duration': {
      const ms = parseDuration(text);
      const inRange = ms !== null && (option.min === undefined ? ms > 0 : ms >= option.min) && (option.max === undefined || ms <= option.max);
      if (!inRange) throw wrong(`takes ${expectedForm(option)}`);
      return ms;
    }
    case 'choice': {
      if (option.values.includes(text)) return text;
      const hint = didYouMean(text, option.values);
      throw new UsageError(`${spec.name}: --${name} is ${expectedForm(option)}, not "${text}"${hint ? ` (did you mean "${hint}"?)` : ''}`);
    }
    case 'parsed':
      try {
        return option.parse(text);
      } catch (error) {
        throw new UsageError(`${spec.name}: --${name}: ${error instanceof Error ? error.message : String(error)}`);
      }
  }
}

/** The words that are not options, by the table's positionals: each required one present, none too many. */
export function resolvePositionals(spec: CommandSpec, words: readonly string[]): Record<string, string | undefined> {
  const declared = spec.positionals ?? [];
  if (words.length > declared.length) {
    const takes = declared.length === 0 ? 'takes no arguments' : `takes ${declared.map((p) => (p.required ? p.name.toUpperCase() : `[${p.name.toUpperCase()}]`)).join(' ')}`;
    throw new UsageError(`${spec.name}: unexpected argument "${words[declared.length]}"; \`clockcheck ${spec.name}\` ${takes}`);
  }
  const resolved: Record<string, string | undefined> = {};
  declared.forEach((positional, i) => {
    const word = words[i];
    if (word === undefined && positional.required) throw new UsageError(`${spec.name}: ${positional.name.toUpperCase()} is missing (${positional.help})`);
    resolved[positional.name] = word;
  });
  return resolved;
}
