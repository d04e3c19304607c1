import { readArgv } from './_internals/argv-reader.ts';
import { resolveOptions, resolvePositionals } from './_internals/resolve-values.ts';
import type { CommandLine, CommandSpec, OptionTable, PositionalSpec, ResolvedArgs, ResolvedOptions } from './option-table.ts';

/**
 * Reads argv by the command's table: `--name value`, `--name=value`, `-x`, and `--` before words
 * that are not options. Every option comes out resolved: a default filled in, a value converted to
 * its kind (integer, milliseconds, a choice, a list).
 * @throws UsageError, one line naming the command, the flag and the expected form: an unknown flag
 * (with "did you mean"), a missing value, a value given to a boolean, a value not of its kind, a
 * missing required option or argument, one argument too many.
 */
export function parseCommandLine<O extends OptionTable, P extends readonly PositionalSpec[]>(
  spec: CommandSpec<O, P>,
  argv: readonly string[],
): CommandLine<O, P> {
  const read = readArgv(spec, argv);
  if (read.help) return { help: true };
  // The table's type says what each entry resolves to; resolveOptions follows the same kinds.
  const options = resolveOptions(spec, read.given) as ResolvedOptions<O>;
  const args = resolvePositionals(spec, read.positionals) as ResolvedArgs<P>;
  return { help: false, options, args };
}
