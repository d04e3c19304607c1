import { jsonBoundsProblem } from '../../client/bounded-json.ts';

/**
 * A body as a person wants to read it: valid JSON re-indented by two spaces, anything else as it
 * is. Re-indenting works on the text, not on a parsed value, so what the target sent is kept
 * exactly (`1.0` stays `1.0`, duplicate keys stay, big integers keep their digits).
 */
export function readableBody(body: string): string {
  if (!isJson(body)) return body;
  return indentJson(body.trim());
}

function isJson(text: string): boolean {
  // Indentation grows with depth: a deeply nested body would be re-indented into megabytes (bounded-json.ts).
  if (text.trim() === '' || jsonBoundsProblem(text) !== null) return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Re-indents valid JSON text token by token: whitespace outside strings is replaced, nothing else. */
function indentJson(json: string): string {
  let out = '';
  let depth = 0;
  let inString = false;
  const newline = () => '\n' + '  '.repeat(depth);
  for (let i = 0; i < json.length; i++) {
    const ch = json[i] as string;
    if (inString) {
      out += ch;
      if (ch === '\\') out += json[++i] ?? '';
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === ' ' || ch === '\n' || ch === '\r' || ch === '\t') continue;
    if (ch === '"') {
      inString = true;
      out += ch;
    } else if (ch === '{' || ch === '[') {
      const close = ch === '{' ? '}' : ']';
      const next = nextSignificant(json, i + 1);
      if (json[next] === close) {
        out += ch + close;
        i = next;
      } else {
        depth++;
        out += ch + newline();
      }
    } else if (ch === '}' || ch === ']') {
      depth--;
      out += newline() + ch;
    } else if (ch === ',') {
      out += ',' + newline();
    } else if (ch === ':') {
      out += ': ';
    } else {
      out += ch;
    }
  }
  return out;
}

function nextSignificant(text: string, from: number): number {
  let i = from;
  while (i < text.length && ' \n\r\t'.includes(text[i] as string)) i++;
  return i;
}
