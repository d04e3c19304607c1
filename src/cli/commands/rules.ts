import { RULES, type Rule } from '../../spec/rules.ts';
import { FAULTS } from '../../reference/faults.ts';
import { parseCommandArgs } from '../args.ts';

const USAGE = `clockcheck rules [--json] [--family NAME] [--basis spec|profile]

Prints the rule catalog: every normative statement of the spec with its stable ID and section.
Columns: ID, section, basis (spec: stated; profile: the spec says "not shown", the target profile decides),
the reference server's faults that break the rule, and the statement.`;

function byFirstSection(a: Rule, b: Rule): number {
  const key = (r: Rule) => (r.section.split(',')[0] ?? '').trim().split('.').map(Number);
  const [x, y] = [key(a), key(b)];
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

export async function rulesCommand(argv: string[]): Promise<number> {
  const { values } = parseCommandArgs('rules', argv, {
    json: { type: 'boolean', default: false },
    family: { type: 'string' },
    basis: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const rules = [...RULES]
    .filter((r) => !values.family || r.family === values.family)
    .filter((r) => !values.basis || r.basis === values.basis)
    .sort(byFirstSection);
  const faultsOf = (id: string) => FAULTS.filter((f) => f.rule === id).map((f) => f.name);
  if (values.json) {
    console.log(JSON.stringify(rules.map((r) => ({ ...r, faults: faultsOf(r.id) })), null, 2));
    return 0;
  }
  const idWidth = Math.max(...rules.map((r) => r.id.length));
  console.log(`${'RULE'.padEnd(idWidth)}  SECTION   BASIS    FAULTS  STATEMENT`);
  for (const r of rules) {
    const faults = faultsOf(r.id).length;
    console.log(`${r.id.padEnd(idWidth)}  §${r.section.padEnd(8)} ${r.basis.padEnd(8)} ${String(faults || '-').padStart(6)}  ${r.statement}`);
  }
  const spec = rules.filter((r) => r.basis === 'spec').length;
  console.log(`\n${rules.length} rules (${spec} stated by the spec, ${rules.length - spec} left to the target profile); checks arrive with \`clockcheck run\`, so every rule is uncovered for now.`);
  return 0;
}
