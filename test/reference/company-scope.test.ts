import { describe, expect, it } from 'vitest';
import { ScopedRepository } from '../../src/reference/companies/company-scope.ts';
import { InMemoryRepository } from '../../src/reference/store.ts';

interface Named {
  id: number;
  name: string;
}

/** A shared table of both companies, their rows in turn: 1 a, 2 b, 3 a, 4 b, 5 a. */
function table() {
  const shared = new InMemoryRepository<Named>();
  for (const [name, company] of [['ann', 1], ['bob', 2], ['amy', 1], ['ben', 2], ['abe', 1]] as const) shared.insert({ name }, company);
  const noFault = () => false;
  return { shared, first: new ScopedRepository(shared, 1, noFault), second: new ScopedRepository(shared, 2, noFault) };
}

describe('a company scope over a shared repository', () => {
  it('draws IDs from one sequence and keeps each row its company', () => {
    const { shared, first, second } = table();
    expect(first.all().map((r) => r.id)).toEqual([1, 3, 5]);
    expect(second.all().map((r) => r.id)).toEqual([2, 4]);
    expect([first.count, second.count, shared.size]).toEqual([3, 2, 5]);
    expect([shared.ownerOf(4), shared.ownerOf(9)]).toEqual([2, undefined]);
  });

  it("reads another company's row as one that never existed", () => {
    const { first } = table();
    expect([first.get(2), first.exists(2), first.get(99), first.exists(99)]).toEqual([undefined, false, undefined, false]);
    expect(first.get(3)).toEqual({ id: 3, name: 'amy' });
  });

  it("lists and counts the company's matching rows only", () => {
    const { first } = table();
    expect(first.listed((r) => r.name.startsWith('a') || r.name.startsWith('b'))).toEqual({ records: [{ id: 1, name: 'ann' }, { id: 3, name: 'amy' }, { id: 5, name: 'abe' }], total: 3 });
  });

  it('stores a new row as the company\'s, and a replaced one stays its company\'s', () => {
    const { shared, second } = table();
    const made = second.insert({ name: 'bea' });
    expect([made.id, shared.ownerOf(made.id)]).toEqual([6, 2]);
    second.replace({ id: 4, name: 'benny' });
    expect([shared.ownerOf(4), second.get(4)?.name]).toEqual([2, 'benny']);
  });

  it('lists, for a fault, the rows of a WHERE whose OR escapes the company condition', () => {
    const { first } = table();
    const escaped = first.listedEscaping((r) => r.name === 'amy', (r) => r.name.startsWith('b'));
    expect(escaped).toEqual({ records: [{ id: 2, name: 'bob' }, { id: 3, name: 'amy' }, { id: 4, name: 'ben' }], total: 3 });
  });
});
