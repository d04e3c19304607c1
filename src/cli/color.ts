/**
 * Whether to write ANSI colours to `stream`: only to a terminal, and never when NO_COLOR is set to
 * anything but the empty string (https://no-color.org) or TERM is `dumb`. A pipe, a file or a CI log
 * gets plain text.
 */
export function useColor(stream: { readonly isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.TERM === 'dumb') return false;
  return stream.isTTY === true;
}
