import { describe, expect, it } from 'vitest';
import { asBoolean, asNumber, hasMeaningType, meaningOrder, sameMeaning } from '../../src/records/same-meaning.ts';

describe('sameMeaning: record values by meaning, not representation', () => {
  it('takes a numeric string for its number (Laravel writes pay_rate "15.00")', () => {
    expect(sameMeaning('15.00', 15)).toBe(true);
    expect(sameMeaning(15, '15.00')).toBe(true);
    expect(sameMeaning('3', 3)).toBe(true);
    expect(sameMeaning('0.00', 0)).toBe(true);
    expect(sameMeaning('15.01', 15)).toBe(false);
    expect(sameMeaning('fifteen', 15)).toBe(false);
    expect(sameMeaning('', 0)).toBe(false);
  });

  it('takes 1/0 and "1"/"0" for booleans, and nothing else', () => {
    for (const t of [1, '1', true]) expect(sameMeaning(t, true)).toBe(true);
    for (const f of [0, '0', false]) expect(sameMeaning(f, false)).toBe(true);
    expect(sameMeaning(1, false)).toBe(false);
    expect(sameMeaning(2, true)).toBe(false);
    expect(sameMeaning('yes', true)).toBe(false);
    expect(sameMeaning('true', true)).toBe(false);
    expect(sameMeaning(null, false)).toBe(false);
  });

  it('keeps strings exact and null distinct from 0 (pay_rate null is not the default 0)', () => {
    expect(sameMeaning('Partial', 'Partial')).toBe(true);
    expect(sameMeaning('partial', 'Partial')).toBe(false);
    expect(sameMeaning(null, 0)).toBe(false);
    expect(sameMeaning(0, null)).toBe(false);
    expect(sameMeaning(null, null)).toBe(true);
    expect(sameMeaning(undefined, null)).toBe(true);
  });

  it('compares arrays element by element and objects key by key, an absent key meaning null', () => {
    expect(sameMeaning(['1', 2], [1, '2.0'])).toBe(true);
    expect(sameMeaning([1, 2], [1])).toBe(false);
    expect(sameMeaning({ a: '1', b: null }, { a: 1 })).toBe(true);
    expect(sameMeaning({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(sameMeaning({ a: 1 }, [1])).toBe(false);
  });
});

describe('asNumber, asBoolean, hasMeaningType', () => {
  it('reads numbers and numeric strings, not other values', () => {
    expect(asNumber(' 12.50 ')).toBe(12.5);
    expect(asNumber('-3')).toBe(-3);
    expect(asNumber('1e3')).toBe(1000);
    expect(asNumber(Number.NaN)).toBeNull();
    expect(asNumber('12abc')).toBeNull();
    expect(asNumber(true)).toBeNull();
    expect(asBoolean('1')).toBe(true);
    expect(asBoolean(0)).toBe(false);
    expect(asBoolean('no')).toBeNull();
  });

  it('calls "15" an integer, "15.5" a number but not an integer, 1 a boolean, and keeps string strict', () => {
    expect(hasMeaningType('15', 'integer')).toBe(true);
    expect(hasMeaningType('15.00', 'integer')).toBe(true);
    expect(hasMeaningType('15.5', 'integer')).toBe(false);
    expect(hasMeaningType('15.5', 'number')).toBe(true);
    expect(hasMeaningType(1, 'boolean')).toBe(true);
    expect(hasMeaningType(2, 'boolean')).toBe(false);
    expect(hasMeaningType(15, 'string')).toBe(false);
    expect(hasMeaningType(null, 'null')).toBe(true);
    expect(hasMeaningType([], 'object')).toBe(false);
  });
});

describe('meaningOrder', () => {
  it('orders numeric strings numerically ("10" after "9"), booleans false first, leaves words to the caller', () => {
    expect(meaningOrder('10', '9')).toBe(1);
    expect(meaningOrder(2, '2.0')).toBe(0);
    expect(meaningOrder(0, true)).toBe(-1);
    expect(meaningOrder('Abe', 'Zed')).toBeNull();
  });
});
