import { commandHelp } from '../input/command-help.ts';
import { parseCommandLine } from '../input/options.ts';
import { type CommandSpec, type OptionTable, type PositionalSpec, type ResolvedArgs, type ResolvedOptions } from '../input/option-table.ts';

/** A command's options and arguments, resolved by its table. */
export interface CommandInput<O extends OptionTable, P extends readonly PositionalSpec[]> {
  readonly options: ResolvedOptions<O>;
  readonly args: ResolvedArgs<P>;
}

/**
 * Reads a command's argv by its table; with `--help` (or `-h`), prints the help rendered from the
 * same table and returns null, so the command returns 0.
 * @throws UsageError for anything the table does not accept (exit 2).
 */
export function readCommandLine<O extends OptionTable, P extends readonly PositionalSpec[]>(spec: CommandSpec<O, P>, argv: readonly string[]): CommandInput<O, P> | null {
  const line = parseCommandLine(spec, argv);
  if (line.help) {
    console.log(commandHelp(spec));
    return null;
  }
  return { options: line.options, args: line.args };
}
