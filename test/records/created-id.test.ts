import { describe, expect, it } from 'vitest';
import { createdId } from '../../src/records/created-id.ts';
import { profileWith } from '../scenarios/support.ts';

const profile = profileWith();

describe('createdId', () => {
  it('finds an id at the top level', () => {
    expect(createdId({ id: 5, name: 'x' }, profile)).toBe(5);
  });

  it('finds an id one envelope key deep: {items: {id}} and {data: {id}}', () => {
    expect(createdId({ items: { id: 6 }, message: 'created' }, profile)).toBe(6);
    expect(createdId({ data: { id: 7 } }, profile)).toBe(7);
  });

  it('finds the id of a one-element array envelope, but not of a longer one', () => {
    expect(createdId({ items: [{ id: 8 }], message: 'created' }, profile)).toBe(8);
    expect(createdId({ items: [{ id: 8 }, { id: 9 }] }, profile)).toBeUndefined();
  });

  it('reads a string of digits as the integer it means, and rejects other strings, empty ones, fractions and objects (ID-INTEGER)', () => {
    expect(createdId({ id: '42' }, profile)).toBe(42);
    expect(createdId({ id: 'abc-1' }, profile)).toBeUndefined();
    expect(createdId({ id: '' }, profile)).toBeUndefined();
    expect(createdId({ id: 1.5 }, profile)).toBeUndefined();
    expect(createdId({ id: { value: 1 } }, profile)).toBeUndefined();
  });

  it('prefers the top-level id over an envelope', () => {
    expect(createdId({ id: 1, data: { id: 2 } }, profile)).toBe(1);
  });

  it('follows the profile id_pointer first, and the defaults where a body does not have it (a break keeps §4.4 items)', () => {
    const pointed = profileWith({ id_pointer: '/result/record/uuid' });
    expect(createdId({ id: 1, result: { record: { uuid: '17' } } }, pointed)).toBe(17);
    expect(createdId({ id: 1 }, pointed)).toBe(1);
    expect(createdId({ items: [{ id: 7 }], message: 'Break added.' }, profileWith({ id_pointer: '/data/id' }))).toBe(7);
    expect(createdId({ message: 'created' }, pointed)).toBeUndefined();
    expect(createdId({ list: [{ id: 4 }] }, profileWith({ id_pointer: '/list/0/id' }))).toBe(4);
  });

  it('finds nothing in bodies without an id', () => {
    expect(createdId({ message: 'created' }, profile)).toBeUndefined();
    expect(createdId([{ id: 1 }], profile)).toBeUndefined();
    expect(createdId(null, profile)).toBeUndefined();
    expect(createdId(undefined, profile)).toBeUndefined();
    expect(createdId('5', profile)).toBeUndefined();
  });
});
