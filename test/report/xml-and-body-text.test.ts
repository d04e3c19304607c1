import { describe, expect, it } from 'vitest';
import { readableBody } from '../../src/report/_internals/body-text.ts';
import { escapeXmlAttribute, escapeXmlText } from '../../src/report/_internals/xml.ts';

describe('readableBody', () => {
  it('re-indents JSON without re-serializing its values', () => {
    expect(readableBody('{"a":1.0,"a":[],"b":{},"c":[1,{"d":"x, y: {z}"}],"big":12345678901234567890}')).toBe(
      ['{', '  "a": 1.0,', '  "a": [],', '  "b": {},', '  "c": [', '    1,', '    {', '      "d": "x, y: {z}"', '    }', '  ],', '  "big": 12345678901234567890', '}'].join('\n'),
    );
  });

  it('keeps escaped quotes and backslashes inside strings', () => {
    expect(readableBody('["a\\"b\\\\", "c"]')).toBe('[\n  "a\\"b\\\\",\n  "c"\n]');
  });

  it('leaves text that is not JSON as it is', () => {
    expect(readableBody('<html>{"a":1}</html>')).toBe('<html>{"a":1}</html>');
    expect(readableBody('{"a":1')).toBe('{"a":1');
    expect(readableBody('')).toBe('');
  });
});

describe('XML escaping', () => {
  it('escapes markup in text and keeps CR as a reference', () => {
    expect(escapeXmlText('a<b>&c\r\n')).toBe('a&lt;b&gt;&amp;c&#13;\n');
  });

  it('escapes quotes, tab and newline in attributes', () => {
    expect(escapeXmlAttribute('"x"\t\n')).toBe('&quot;x&quot;&#9;&#10;');
  });

  it('replaces characters XML 1.0 cannot carry with a visible \\u escape, keeping surrogate pairs', () => {
    expect(escapeXmlText('\u0000\u0008\u000B\u001F\uFFFE ok \u{1F600}')).toBe('\\u0000\\u0008\\u000B\\u001F\\uFFFE ok \u{1F600}');
  });
});
