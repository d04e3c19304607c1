/**
 * XML 1.0 escaping. Characters XML 1.0 cannot carry at all (C0 controls other than tab, newline
 * and carriage return, lone surrogates, U+FFFE, U+FFFF) cannot even be written as character
 * references, so they are replaced by a visible `\uXXXX`.
 */
const NOT_XML_CHAR = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function visibleCodeUnit(ch: string): string {
  return `\\u${ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Escapes text for element content; a carriage return is kept as `&#13;` (parsers would drop it). */
export function escapeXmlText(text: string): string {
  return text
    .replace(NOT_XML_CHAR, visibleCodeUnit)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\r/g, '&#13;');
}

/** Escapes text for a double-quoted attribute; tab, newline and CR survive attribute normalization. */
export function escapeXmlAttribute(text: string): string {
  return escapeXmlText(text)
    .replace(/"/g, '&quot;')
    .replace(/\t/g, '&#9;')
    .replace(/\n/g, '&#10;');
}
