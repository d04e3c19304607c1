import { describe, expect, it } from 'vitest';
import { parseTemplateExpression } from '../../src/input/template-syntax.ts';

describe('parseTemplateExpression', () => {
  it('reads a call with integer and quoted arguments, commas inside quotes kept', () => {
    expect(parseTemplateExpression(" jan(1, '09:00', \"Europe/London\") ")).toEqual({ kind: 'call', name: 'jan', args: [1, '09:00', 'Europe/London'] });
    expect(parseTemplateExpression("f(-2, 'a, b')")).toEqual({ kind: 'call', name: 'f', args: [-2, 'a, b'] });
    expect(parseTemplateExpression('jan()')).toEqual({ kind: 'call', name: 'jan', args: [] });
  });

  it('reads a path as its root and its steps, indexes as numbers', () => {
    expect(parseTemplateExpression('fixtures.role_user_ids.admin[0]')).toEqual({ kind: 'path', root: 'fixtures', steps: ['role_user_ids', 'admin', 0] });
    expect(parseTemplateExpression('company_timezone')).toEqual({ kind: 'path', root: 'company_timezone', steps: [] });
  });

  it('says what is wrong with an argument that is no literal, an empty argument and a path that is none', () => {
    expect(parseTemplateExpression('jan(zero)')).toEqual({ kind: 'malformed', problem: 'argument zero must be an integer or a quoted string' });
    expect(parseTemplateExpression('jan(1,,2)')).toEqual({ kind: 'malformed', problem: 'argument (empty) must be an integer or a quoted string' });
    expect(parseTemplateExpression("jan(1.5, '09:00')")).toMatchObject({ kind: 'malformed', problem: 'argument 1.5 must be an integer or a quoted string' });
    expect(parseTemplateExpression("jan('09:00)")).toMatchObject({ kind: 'malformed' });
    expect(parseTemplateExpression('vars.a b')).toMatchObject({ kind: 'malformed', problem: expect.stringContaining('cannot read "vars.a b"') });
  });
});
