import { describe, expect, it } from 'vitest';
import {
  PASSWORD_CLASSES,
  PASSWORD_MIN_LENGTH,
  missingPasswordClasses,
  passwordRuleBreaks,
} from '../../../src/contract/payloads/password.ts';

describe('password rules (§2.2, §8)', () => {
  it('asks for at least 6 characters and four character classes', () => {
    expect(PASSWORD_MIN_LENGTH).toBe(6);
    expect(Object.keys(PASSWORD_CLASSES)).toEqual(['lowercase', 'uppercase', 'digit', 'special']);
  });

  it.each([
    ['Secr3t!', []],
    ['secr3t!', ['uppercase']],
    ['SECR3T!', ['lowercase']],
    ['Secret!', ['digit']],
    ['Secr3t1', ['special']],
    ['Secr3t 1', ['special']],
    ['abcdef', ['uppercase', 'digit', 'special']],
    ['123456', ['lowercase', 'uppercase', 'special']],
    ['!!!!!!', ['lowercase', 'uppercase', 'digit']],
    ['', ['lowercase', 'uppercase', 'digit', 'special']],
  ])('finds %j missing %j', (password, missing) => {
    expect(missingPasswordClasses(password)).toEqual(missing);
  });

  it.each(['!', '@', '#', '$', '%', '^', '&', '*', '-', '_', '.', '~', '€'])('counts %s as a special character', (special) => {
    expect(missingPasswordClasses(`Abc1${special}x`)).toEqual([]);
  });

  it.each([
    ['Secr3t!', []],
    ['Ab1!xy', []],
    ['Ab1!x', ['USR-PASSWORD-LENGTH']],
    ['secret', ['USR-PASSWORD-CLASSES']],
    ['Secret12', ['USR-PASSWORD-CLASSES']],
    ['ab', ['USR-PASSWORD-LENGTH', 'USR-PASSWORD-CLASSES']],
    ['', ['USR-PASSWORD-LENGTH', 'USR-PASSWORD-CLASSES']],
    // Length counts code points: the emoji is one character, though two UTF-16 units.
    ['Ab1!😀', ['USR-PASSWORD-LENGTH']],
    ['Ab1!😀x', []],
  ])('judges %j to break %j', (password, rules) => {
    expect(passwordRuleBreaks(password)).toEqual(rules);
  });
});
