import fc from 'fast-check';
import { InternalError } from '../../../errors.ts';
import type { EdgeClass, GeneratedCase, GeneratorContext } from '../../family.ts';
import { stableHash } from '../_internals/stable-hash.ts';

/** The seed that picks a class's member: the family's seed mixed with the class's name (and the try). */
function memberSeed(seed: number, name: string, attempt: number): number {
  return (stableHash(`${attempt}\u0000${name}`, seed >>> 0) >>> 0) % 2 ** 31;
}

function pick(cls: EdgeClass, ctx: GeneratorContext, seed: number, attempt: number): GeneratedCase {
  const [member] = fc.sample(cls.member(ctx), { seed: memberSeed(seed, cls.name, attempt), numRuns: 1 });
  if (!member) throw new InternalError(`edge class "${cls.name}" has no member`);
  return member;
}

/** A packed case: the first member's payload with each other class's fields taken from its member. */
function packed(classes: readonly EdgeClass[], members: readonly GeneratedCase[]): GeneratedCase {
  let payload: Record<string, unknown> = { ...members[0]!.payload };
  for (let i = 1; i < classes.length; i++) {
    for (const field of classes[i]!.fields ?? []) {
      const value = members[i]!.payload[field];
      if (value === undefined) {
        const { [field]: _gone, ...rest } = payload;
        payload = rest;
      } else payload = { ...payload, [field]: value };
    }
  }
  const names = classes.map((c) => c.name);
  return { payload, label: `edge: ${names.join('; ')} (valid)`, edges: names };
}

/** Which valid classes share a case: in table order, each into the first case of its pack with none of its fields. */
export function packValidClasses(classes: readonly EdgeClass[]): EdgeClass[][] {
  const packs: EdgeClass[][] = [];
  for (const cls of classes.filter((c) => c.breaks === undefined)) {
    const fields = new Set(cls.fields ?? []);
    const into = packs.find((p) => p[0]!.pack !== undefined && p[0]!.pack === cls.pack && p.every((o) => !(o.fields ?? []).some((f) => fields.has(f))));
    if (into) into.push(cls);
    else packs.push([cls]);
  }
  return packs;
}

/**
 * The edge cases of a family's table for a seed: the valid classes packed (packValidClasses), each
 * invalid class a case of its own, in table order. The seed picks each class's member; a class
 * whose member the target may hold carries a second member as the case's `alternate`.
 */
export function edgeCases(classes: readonly EdgeClass[], ctx: GeneratorContext, seed: number): GeneratedCase[] {
  const packs = packValidClasses(classes);
  const cases: GeneratedCase[] = [];
  for (const cls of classes) {
    if (cls.breaks !== undefined) {
      const member = pick(cls, ctx, seed, 0);
      cases.push({ ...member, label: `edge: ${cls.name}: ${member.label}`, edges: [cls.name] });
      continue;
    }
    const pack = packs.find((p) => p[0] === cls);
    if (!pack) continue;
    const first = packed(pack, pack.map((c) => pick(c, ctx, seed, 0)));
    const held = pack.some((c) => c.mayBeHeld);
    cases.push(held ? { ...first, alternate: packed(pack, pack.map((c) => pick(c, ctx, seed, c.mayBeHeld ? 1 : 0))) } : first);
  }
  return cases;
}

/** How many cases a table makes (valid classes packed, invalid ones one each): the same for every seed and context. */
export function edgeCaseCount(classes: readonly EdgeClass[]): number {
  return packValidClasses(classes).length + classes.filter((c) => c.breaks !== undefined).length;
}
