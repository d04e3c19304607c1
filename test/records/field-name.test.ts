import { describe, expect, it } from 'vitest';
import { camelCase, readField, snakeCase, spellingOf, spellings } from '../../src/records/field-name.ts';

describe('record field names in either spelling', () => {
  it('converts between snake_case and camelCase', () => {
    expect(camelCase('first_name')).toBe('firstName');
    expect(camelCase('clock_in_timezone')).toBe('clockInTimezone');
    expect(camelCase('id')).toBe('id');
    expect(snakeCase('roleId')).toBe('role_id');
  });

  it('tries the written name, then its camelCase, under auto; the camelCase first under camel; the written name alone under snake', () => {
    expect(spellings('first_name', 'auto')).toEqual(['first_name', 'firstName']);
    expect(spellings('id', 'auto')).toEqual(['id']);
    expect(spellings('first_name', 'camel')).toEqual(['firstName', 'first_name']);
    expect(spellings('first_name', 'snake')).toEqual(['first_name']);
    expect(spellings('break_rule_id', 'exact')).toEqual(['break_rule_id']);
  });

  it('reads a field that is present even when its value is null, and says when it is absent', () => {
    expect(readField({ firstName: 'Ada' }, 'first_name', 'auto')).toEqual({ found: true, value: 'Ada' });
    expect(readField({ pay_rate: null }, 'pay_rate', 'auto')).toEqual({ found: true, value: null });
    expect(readField({ firstName: 'Ada' }, 'first_name', 'snake')).toEqual({ found: false });
    expect(readField({ first_name: 'Ada', firstName: 'Abe' }, 'first_name', 'camel')).toEqual({ found: true, value: 'Abe' });
    expect(readField({ break_rule_id: 1 }, 'break_rule_id', 'camel')).toEqual({ found: true, value: 1 });
    expect(readField([1], 'first_name', 'auto')).toEqual({ found: false });
    expect(readField({}, 'constructor', 'auto')).toEqual({ found: false });
  });

  it('tells the spelling a record uses from its keys, or null when they do not show it', () => {
    expect(spellingOf({ id: 1, first_name: 'A', role_id: 3 })).toBe('snake');
    expect(spellingOf({ id: 1, firstName: 'A' })).toBe('camel');
    expect(spellingOf({ id: 1, email: 'a@b.c' })).toBeNull();
    expect(spellingOf({ first_name: 'A', roleId: 3 })).toBeNull();
  });
});
