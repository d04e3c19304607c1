/** An escape sequence a terminal acts on: CSI (`ESC [ … m`, and its one-byte form 0x9B), OSC (`ESC ] … BEL`), and any other `ESC x` (`ESC c` resets the terminal). */
const ESCAPE_SEQUENCES = /(?:\u001B\[|\u009B)[0-?]*[ -/]*[@-~]|\u001B\][^\u0007\u001B]*(?:\u0007|\u001B\\)?|\u001B[@-~]?/g;

/**
 * Text from the target (an `actual`, a reason, a body quoted in an error) as one line a terminal
 * shows and does not act on: escape sequences removed whole, every other control character dropped,
 * whitespace runs made one space.
 */
export function terminalSafe(text: string): string {
  return text.replace(ESCAPE_SEQUENCES, '').replace(/\s+/g, ' ').replace(/[\u0000-\u001F\u007F-\u009F]/g, '').trim();
}

/** terminalSafe, cut to `maxLength` characters with an ellipsis. */
export function oneLine(text: string, maxLength: number): string {
  const flat = terminalSafe(text);
  return flat.length > maxLength ? `${flat.slice(0, maxLength - 1)}…` : flat;
}

type Style = 'bold' | 'dim' | 'green' | 'red' | 'yellow' | 'magenta' | 'cyan';

const SGR: Readonly<Record<Style, string>> = { bold: '1', dim: '2', green: '32', red: '31', yellow: '33', magenta: '35', cyan: '36' };

/** A painter that wraps text in ANSI colours, or returns it unchanged when colour is off. */
export function painter(color: boolean): (style: Style, text: string) => string {
  return (style, text) => (color ? `\u001B[${SGR[style]}m${text}\u001B[0m` : text);
}
