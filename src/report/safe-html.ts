/**
 * A tiny HTML builder that escapes by default: every value interpolated into `html\`…\`` is
 * escaped unless it is itself the result of `html` (or `trustedHtml`). Text from the target (bodies,
 * headers, messages) can therefore never become markup.
 */
export class SafeHtml {
  constructor(readonly markup: string) {}
  toString(): string {
    return this.markup;
  }
}

export type HtmlValue = SafeHtml | string | number | boolean | null | undefined | readonly HtmlValue[];

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for element content and double- or single-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ESCAPES[ch] ?? ch);
}

function render(value: HtmlValue): string {
  if (value instanceof SafeHtml) return value.markup;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

/** Builds markup; interpolated values are escaped, arrays are concatenated, null/undefined/false vanish. */
export function html(strings: TemplateStringsArray, ...values: readonly HtmlValue[]): SafeHtml {
  let markup = strings[0] ?? '';
  values.forEach((value, i) => {
    markup += render(value) + (strings[i + 1] ?? '');
  });
  return new SafeHtml(markup);
}

/** Marks markup written by clockcheck itself (the stylesheet, the script) as safe. */
export function trustedHtml(markup: string): SafeHtml {
  return new SafeHtml(markup);
}
