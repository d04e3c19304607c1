/**
 * A small, strict XML 1.0 parser for tests: elements, attributes, text, character and the five
 * predefined entity references, an XML declaration and comments. It throws on anything not
 * well-formed (mismatched or unclosed tags, a raw `<` or `&`, a duplicate attribute, a character
 * XML forbids), so a test can ask "is this well-formed?" and then inspect the tree.
 */
export interface XmlElement {
  readonly name: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly children: readonly XmlElement[];
  /** The element's own text, entity references resolved (children's text not included). */
  readonly text: string;
}

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function isNameChar(ch: string | undefined): boolean {
  if (ch === undefined) return false;
  const code = ch.charCodeAt(0);
  return (
    (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || (code >= 0x30 && code <= 0x39) ||
    ch === '_' || ch === '-' || ch === '.' || ch === ':' || code > 0x7f
  );
}

function isXmlChar(code: number): boolean {
  return code === 0x9 || code === 0xa || code === 0xd || (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfffd) || code >= 0x10000;
}

class Parser {
  private pos = 0;
  constructor(private readonly src: string) {
    for (const ch of src) {
      const code = ch.codePointAt(0) ?? 0;
      if (!isXmlChar(code) || (code >= 0xd800 && code <= 0xdfff)) throw new Error(`character U+${code.toString(16)} is not allowed in XML`);
    }
  }

  private fail(message: string): never {
    throw new Error(`${message} at offset ${this.pos}`);
  }

  private startsWith(text: string): boolean {
    return this.src.startsWith(text, this.pos);
  }

  private expect(text: string): void {
    if (!this.startsWith(text)) this.fail(`expected ${JSON.stringify(text)}`);
    this.pos += text.length;
  }

  private skipSpace(): void {
    while (' \t\r\n'.includes(this.src[this.pos] ?? 'x')) this.pos++;
  }

  private skipMisc(): void {
    for (;;) {
      this.skipSpace();
      if (this.startsWith('<!--')) {
        const end = this.src.indexOf('-->', this.pos);
        if (end < 0) this.fail('unclosed comment');
        this.pos = end + 3;
      } else return;
    }
  }

  private name(): string {
    const start = this.pos;
    while (isNameChar(this.src[this.pos])) this.pos++;
    if (this.pos === start) this.fail('expected a name');
    return this.src.slice(start, this.pos);
  }

  /** Reads character data up to `stop`, resolving references; a raw `<` or `&` is an error. */
  private chars(stop: string): string {
    let out = '';
    while (this.pos < this.src.length && !this.startsWith(stop)) {
      const ch = this.src[this.pos] as string;
      if (ch === '<') this.fail('raw "<"');
      if (ch === '&') {
        const end = this.src.indexOf(';', this.pos);
        if (end < 0) this.fail('unterminated reference');
        const ref = this.src.slice(this.pos + 1, end);
        if (ref.startsWith('#x')) out += String.fromCodePoint(parseInt(ref.slice(2), 16));
        else if (ref.startsWith('#')) out += String.fromCodePoint(parseInt(ref.slice(1), 10));
        else if (ENTITIES[ref] !== undefined) out += ENTITIES[ref];
        else this.fail(`unknown entity &${ref};`);
        this.pos = end + 1;
      } else {
        out += ch;
        this.pos++;
      }
    }
    return out;
  }

  private element(): XmlElement {
    this.expect('<');
    const name = this.name();
    const attributes: Record<string, string> = {};
    for (;;) {
      this.skipSpace();
      if (this.startsWith('/>')) {
        this.pos += 2;
        return { name, attributes, children: [], text: '' };
      }
      if (this.startsWith('>')) break;
      const attr = this.name();
      if (attr in attributes) this.fail(`duplicate attribute ${attr}`);
      this.skipSpace();
      this.expect('=');
      this.skipSpace();
      const quote = this.src[this.pos];
      if (quote !== '"' && quote !== "'") this.fail('expected a quoted value');
      this.pos++;
      attributes[attr] = this.chars(quote);
      this.expect(quote);
    }
    this.expect('>');
    const children: XmlElement[] = [];
    let text = '';
    for (;;) {
      text += this.chars('<');
      if (this.startsWith('</')) break;
      if (this.startsWith('<!--')) this.skipMisc();
      else if (this.pos >= this.src.length) this.fail(`unclosed <${name}>`);
      else children.push(this.element());
    }
    this.expect('</');
    if (this.name() !== name) this.fail(`mismatched end tag for <${name}>`);
    this.skipSpace();
    this.expect('>');
    return { name, attributes, children, text };
  }

  document(): XmlElement {
    if (this.startsWith('<?xml')) {
      const end = this.src.indexOf('?>', this.pos);
      if (end < 0) this.fail('unclosed XML declaration');
      this.pos = end + 2;
    }
    this.skipMisc();
    const root = this.element();
    this.skipMisc();
    if (this.pos !== this.src.length) this.fail('content after the root element');
    return root;
  }
}

/** Parses an XML document; throws when it is not well-formed. */
export function parseXml(source: string): XmlElement {
  return new Parser(source).document();
}

/** All descendants (and the element itself) named `name`, in document order. */
export function elementsNamed(root: XmlElement, name: string): XmlElement[] {
  return [...(root.name === name ? [root] : []), ...root.children.flatMap((c) => elementsNamed(c, name))];
}
