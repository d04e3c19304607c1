import { durationText } from '../duration-text.ts';
import type { OptionSpec } from '../option-table.ts';

/** What an option's value must be, for errors: `an integer from 0 to 100000`, `one of text, json`, `FILE`. */
export function expectedForm(option: Exclude<OptionSpec, { kind: 'boolean' }>): string {
  switch (option.kind) {
    case 'integer':
      return `an integer from ${option.min} to ${option.max}`;
    case 'duration': {
      const bounds =
        option.min !== undefined && option.max !== undefined
          ? ` from ${durationText(option.min)} to ${durationText(option.max)}`
          : option.max !== undefined
            ? ` above 0 and up to ${durationText(option.max)}`
            : option.min !== undefined
              ? ` of at least ${durationText(option.min)}`
              : ' above 0';
      return `a duration${bounds}, such as 90s or 20m`;
    }
    case 'choice':
      return `one of ${option.values.join(', ')}`;
    default:
      return option.placeholder;
  }
}
