/**
 * Text from the target (an `actual`, a reason) may hold escape sequences that would drive the
 * terminal; every control character is dropped, and whitespace runs become one space.
 */
export function oneLine(text: string, maxLength: number): string {
  const flat = text.replace(/\s+/g, ' ').replace(/[\u0000-\u001F\u007F-\u009F]/g, '').trim();
  return flat.length > maxLength ? `${flat.slice(0, maxLength - 1)}…` : flat;
}

type Style = 'bold' | 'dim' | 'green' | 'red' | 'yellow' | 'magenta' | 'cyan';

const SGR: Readonly<Record<Style, string>> = { bold: '1', dim: '2', green: '32', red: '31', yellow: '33', magenta: '35', cyan: '36' };

/** A painter that wraps text in ANSI colours, or returns it unchanged when colour is off. */
export function painter(color: boolean): (style: Style, text: string) => string {
  return (style, text) => (color ? `\u001B[${SGR[style]}m${text}\u001B[0m` : text);
}
