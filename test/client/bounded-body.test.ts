import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readBoundedBody } from '../../src/client/_internals/bounded-body.ts';

const stream = (...chunks: Buffer[]) => Readable.from(chunks, { objectMode: false });

describe('readBoundedBody', () => {
  it('decodes a character split across chunks, as the whole buffer would decode', async () => {
    const bytes = Buffer.from('{"name":"Zoë 時間"}', 'utf8');
    const split = bytes.indexOf(Buffer.from('時', 'utf8')) + 1; // inside the three bytes of 時
    const read = await readBoundedBody(stream(bytes.subarray(0, split), bytes.subarray(split)), undefined, 1024, 4096);
    expect(read.text).toBe('{"name":"Zoë 時間"}');
    expect(read.keptBytes).toBe(bytes.length);
    expect(read.bytes).toBe(bytes.length);
    expect(read.incomplete).toBe(false);
  });

  it('keeps the first keepBytes and counts the rest', async () => {
    const read = await readBoundedBody(stream(Buffer.from('abcdef'), Buffer.from('ghij')), undefined, 8, 4096);
    expect(read.text).toBe('abcdefgh');
    expect(read.keptBytes).toBe(8);
    expect(read.bytes).toBe(10);
  });

  it('stops past abortBytes, or at once when more is announced', async () => {
    const over = await readBoundedBody(stream(Buffer.alloc(600, 0x61), Buffer.alloc(600, 0x61)), undefined, 100, 1000);
    expect(over).toMatchObject({ tooLarge: true, incomplete: true, keptBytes: 100 });
    const announced = await readBoundedBody(stream(Buffer.from('x')), 5000, 100, 1000);
    expect(announced).toMatchObject({ tooLarge: true, text: '', bytes: 0 });
  });
});
