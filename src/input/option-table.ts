import { InternalError } from '../errors.ts';

/**
 * A command's options and arguments, declared once as data. `parseCommandLine` reads argv by the
 * table into a typed, resolved object (defaults filled in), and `commandHelp` (command-help.ts)
 * renders `--help` from the same table, so the two cannot drift apart. As with node's
 * `util.parseArgs`, the result's type is inferred from a `const` table: a command gets typed values
 * with no casts.
 */

interface OptionBase {
  /** One line for `--help` (wrapped there when long). */
  readonly help: string;
  /** A one-letter alias, typed as `-x`. */
  readonly short?: string;
}

interface ValueOption extends OptionBase {
  /** What the value is, in `--help`, the usage line and errors: `FILE`, `N`, `DURATION`. */
  readonly placeholder: string;
}

interface SingleValueOption extends ValueOption {
  /** The option must be given (it has no default); the usage line shows it. */
  readonly required?: boolean;
  /** The default as `--help` states it when the command resolves it from other input (`random`, `the profile's`). */
  readonly defaultHelp?: string;
}

/** `--quiet`: true when given, else false. It takes no value. */
export interface BooleanOption extends OptionBase {
  readonly kind: 'boolean';
}

/** `--profile FILE`: the text as given. */
export interface StringOption extends SingleValueOption {
  readonly kind: 'string';
  readonly default?: string;
}

/** `--budget N`: a whole number from `min` to `max` (inclusive). */
export interface IntegerOption extends SingleValueOption {
  readonly kind: 'integer';
  readonly min: number;
  readonly max: number;
  readonly default?: number;
}

/** `--max-time 20m`: `500ms`, `90s`, `2.5m` (src/duration.ts), resolved to milliseconds; above 0 unless `min` says otherwise. */
export interface DurationOption extends SingleValueOption {
  readonly kind: 'duration';
  /** Milliseconds, inclusive; without it the duration must be above 0. */
  readonly min?: number;
  /** Milliseconds, inclusive. */
  readonly max?: number;
  /** Milliseconds. */
  readonly default?: number;
}

/** `--format json`: one of `values`; an unknown value gets "did you mean". */
export interface ChoiceOption extends Omit<SingleValueOption, 'placeholder'> {
  readonly kind: 'choice';
  readonly values: readonly string[];
  readonly default?: string;
  /** Without it, `--help` shows the values themselves (`text|json`). */
  readonly placeholder?: string;
}

/** `--only a,b --only c`: comma-separated names, every occurrence's; `default` (else `[]`) when not given. */
export interface ListOption extends ValueOption {
  readonly kind: 'list';
  readonly default?: readonly string[];
}

/** `--fault a --fault b`: one value per occurrence; `[]` when not given. */
export interface RepeatableOption extends ValueOption {
  readonly kind: 'repeatable';
}

/**
 * `--invalid [RULE]`: false when absent, true when given alone, its value with `--invalid=RULE` or
 * when the next word is one `takes` accepts (without `takes`: any word that is not an option).
 */
export interface FlagOrValueOption extends ValueOption {
  readonly kind: 'flag-or-value';
  readonly takes?: (word: string) => boolean;
}

/**
 * `--rate-limit 60/60s`: the value as `parse` returns it. `parse` throws an Error whose message says
 * the expected form; the parser prefixes the command and the flag. A default is given as text, as the
 * user would type it, and parsed the same way.
 */
export interface ParsedOption<T = unknown> extends SingleValueOption {
  readonly kind: 'parsed';
  readonly parse: (text: string) => T;
  readonly default?: string;
}

export type OptionSpec =
  | BooleanOption
  | StringOption
  | IntegerOption
  | DurationOption
  | ChoiceOption
  | ListOption
  | RepeatableOption
  | FlagOrValueOption
  | ParsedOption;

/** A command's options by name (the name as typed, without `--`), in the order `--help` lists them. */
export type OptionTable = Readonly<Record<string, OptionSpec>>;

/** A word the command takes besides its options: `diff OLD NEW`. */
export interface PositionalSpec {
  /** The key in the parsed `args`; `--help` shows it in capitals. */
  readonly name: string;
  readonly required?: boolean;
  readonly help: string;
}

export interface CommandSpec<O extends OptionTable = OptionTable, P extends readonly PositionalSpec[] = readonly PositionalSpec[]> {
  /** The command as typed after `clockcheck`. */
  readonly name: string;
  /** What the command does, for `--help`: prose, as wrapped, that does not restate the option list. */
  readonly description: string;
  readonly options: O;
  readonly positionals?: P;
}

/** The value when an option with a default or `required` is not given; otherwise it may be undefined. */
type Given<S, T> = S extends { readonly default: unknown } ? T : S extends { readonly required: true } ? T : T | undefined;

/** The resolved value of one option, by its kind. */
export type OptionValue<S extends OptionSpec> = S extends { readonly kind: 'boolean' }
  ? boolean
  : S extends { readonly kind: 'list' | 'repeatable' }
    ? string[]
    : S extends { readonly kind: 'flag-or-value' }
      ? boolean | string
      : S extends { readonly kind: 'choice'; readonly values: readonly (infer V)[] }
        ? Given<S, V>
        : S extends { readonly kind: 'integer' | 'duration' }
          ? Given<S, number>
          : S extends { readonly kind: 'parsed'; readonly parse: (text: string) => infer T }
            ? Given<S, T>
            : Given<S, string>;

export type ResolvedOptions<O extends OptionTable> = { readonly [K in keyof O]: OptionValue<O[K]> };

export type ResolvedArgs<P extends readonly PositionalSpec[]> = {
  readonly [E in P[number] as E['name']]: E extends { readonly required: true } ? string : string | undefined;
};

/** The command line as the table reads it, or a request for `--help` (which wins over anything else given). */
export type CommandLine<O extends OptionTable, P extends readonly PositionalSpec[]> =
  | { readonly help: true }
  | { readonly help: false; readonly options: ResolvedOptions<O>; readonly args: ResolvedArgs<P> };

/** Every command's `--help` / `-h`; no table may declare it. */
export const HELP_OPTION: BooleanOption = { kind: 'boolean', short: 'h', help: 'print this help' };

/**
 * Declares a command's table, keeping its literal types (choice values, `required`, `default`) for
 * the parsed result. Checks what the compiler cannot: a choice's default is one of its values, a
 * parsed option's default parses, no option is called `help` or shares a short alias, an option with
 * a default is not also required, no required argument follows an optional one.
 * @throws InternalError at module load when the table is inconsistent (a bug, caught by any test that loads it).
 */
export function defineCommand<const O extends OptionTable, const P extends readonly PositionalSpec[] = readonly []>(
  spec: CommandSpec<O, P>,
): CommandSpec<O, P> {
  const shorts = new Set<string>([HELP_OPTION.short as string]);
  for (const [name, option] of Object.entries(spec.options)) {
    const where = `${spec.name} --${name}`;
    if (name === 'help' || !/^[a-z][a-z0-9-]*$/.test(name)) throw new InternalError(`${where}: not an option name a table may declare`);
    if (option.short !== undefined) {
      if (shorts.has(option.short)) throw new InternalError(`${where}: short alias -${option.short} is taken`);
      shorts.add(option.short);
    }
    if (option.kind === 'choice' && option.default !== undefined && !option.values.includes(option.default)) {
      throw new InternalError(`${where}: default "${option.default}" is not one of ${option.values.join(', ')}`);
    }
    if ('required' in option && option.required && 'default' in option && option.default !== undefined) {
      throw new InternalError(`${where}: required, so it cannot have a default`);
    }
    if (option.kind === 'parsed' && option.default !== undefined) {
      try {
        option.parse(option.default);
      } catch (error) {
        throw new InternalError(`${where}: its default "${option.default}" does not parse: ${(error as Error).message}`);
      }
    }
  }
  const positionals = spec.positionals ?? [];
  const firstOptional = positionals.findIndex((p) => !p.required);
  if (firstOptional >= 0 && positionals.slice(firstOptional).some((p) => p.required)) {
    throw new InternalError(`${spec.name}: a required argument follows an optional one`);
  }
  return spec;
}
