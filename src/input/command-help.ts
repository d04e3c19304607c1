import { HELP_OPTION, type CommandSpec, type OptionSpec } from './option-table.ts';
import { durationText } from './duration-text.ts';
import { wrapText } from './_internals/wrap-text.ts';

/** The width `--help` wraps option help to. */
const WIDTH = 100;
/** The widest flag column; a longer flag stands on its own line, its help below it. */
const MAX_FLAG_COLUMN = 32;

/**
 * A command's `--help`, from its table: the usage line (required options and arguments by name,
 * the rest as `[options]`), the command's prose, then its arguments and options aligned, each with
 * its placeholder, its help line and its default.
 */
export function commandHelp(spec: CommandSpec): string {
  const positionals = spec.positionals ?? [];
  const options: [string, OptionSpec][] = [...Object.entries(spec.options), ['help', HELP_OPTION]];
  const sections = [usageLine(spec), spec.description.trim()];
  if (positionals.length > 0) sections.push(['Arguments:', ...aligned(positionals.map((p) => [p.name.toUpperCase(), p.required ? p.help : `${p.help} [optional]`]))].join('\n'));
  sections.push(['Options:', ...aligned(options.map(([name, option]) => [flagColumn(name, option), optionHelp(option)]))].join('\n'));
  return sections.join('\n\n');
}

function usageLine(spec: CommandSpec): string {
  const required = Object.entries(spec.options).flatMap(([name, option]) => ('required' in option && option.required ? [`--${name} ${placeholderOf(option)}`] : []));
  const positionals = (spec.positionals ?? []).map((p) => (p.required ? p.name.toUpperCase() : `[${p.name.toUpperCase()}]`));
  return ['clockcheck', spec.name, ...required, ...positionals, '[options]'].join(' ');
}

function placeholderOf(option: OptionSpec): string {
  if (option.kind === 'boolean') return '';
  if (option.kind === 'choice') return option.placeholder ?? option.values.join('|');
  return option.placeholder;
}

function flagColumn(name: string, option: OptionSpec): string {
  const flag = `${option.short ? `-${option.short}, ` : ''}--${name}`;
  const placeholder = placeholderOf(option);
  if (option.kind === 'flag-or-value') return `${flag} [${placeholder}]`;
  return placeholder ? `${flag} ${placeholder}` : flag;
}

/** The help line, then in brackets what the kind implies: the values of a choice shown by a placeholder, repetition, the default. */
function optionHelp(option: OptionSpec): string {
  const notes: string[] = [];
  if (option.kind === 'choice' && option.placeholder !== undefined) notes.push(`one of: ${option.values.join(', ')}`);
  if (option.kind === 'list') notes.push('comma-separated; repeatable');
  if (option.kind === 'repeatable') notes.push('repeatable');
  if ('required' in option && option.required) notes.push('required');
  const shown = defaultText(option);
  if (shown !== undefined) notes.push(`default: ${shown}`);
  return notes.length > 0 ? `${option.help} [${notes.join('; ')}]` : option.help;
}

function defaultText(option: OptionSpec): string | undefined {
  if (!('default' in option) && !('defaultHelp' in option)) return undefined;
  if ('defaultHelp' in option && option.defaultHelp !== undefined) return option.defaultHelp;
  if (option.kind === 'duration' && option.default !== undefined) return durationText(option.default);
  if (option.kind === 'list') return option.default !== undefined && option.default.length > 0 ? option.default.join(',') : undefined;
  return 'default' in option && option.default !== undefined ? String(option.default) : undefined;
}

/** Two columns: the left padded to one width, the right wrapped beside it (below it when the left is too wide). */
function aligned(rows: readonly (readonly [string, string])[]): string[] {
  const fitting = rows.map(([left]) => left.length).filter((length) => length <= MAX_FLAG_COLUMN);
  const column = fitting.length > 0 ? Math.max(...fitting) : MAX_FLAG_COLUMN;
  const indent = ' '.repeat(2 + column + 2);
  return rows.flatMap(([left, right]) => {
    const wrapped = wrapText(right, WIDTH - indent.length);
    if (left.length > column) return [`  ${left}`, ...wrapped.map((line) => `${indent}${line}`)];
    return [`  ${left.padEnd(column)}  ${wrapped[0]}`, ...wrapped.slice(1).map((line) => `${indent}${line}`)];
  });
}
