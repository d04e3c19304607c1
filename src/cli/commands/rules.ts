import { BUILTIN_CHECKS } from '../../plan/selection.ts';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RULES, type Rule } from '../../contract/rules.ts';
import { FAULTS } from '../../reference/faults.ts';
import { BUILTIN_CHECK_NAMES } from '../../checks/names.ts';
import { loadSuites } from '../../scenarios/loader.ts';
import { defineCommand } from '../../input/option-table.ts';
import { readCommandLine } from '../command-line.ts';
import { PROPERTY_FAMILIES } from '../../properties/families.ts';
import { PROFILE_RULES_OF_CHECK } from '../../ratelimit/rate-limit-checks.ts';
import { TOKEN_FORM_CHECK_ID } from '../../needs/preflight.ts';

const PACKAGE_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** The rule families, in the catalog's order: what `--family` accepts. */
const FAMILIES = [...new Set(RULES.map((r) => r.family))];

export const RULES_COMMAND = defineCommand({
  name: 'rules',
  description: `Prints the rule catalog: every normative statement of the spec with its stable ID and section.
Columns: ID, section, basis (spec: stated; profile: the spec says "not shown", the target profile decides),
the number of checks (scenarios, property families, built-in checks) that cover the rule (UNCOVERED when
none: a visible gap), the reference server's faults that break it, and the statement.`,
  options: {
    json: { kind: 'boolean', help: 'print the rules as JSON, each with its checks and faults' },
    family: { kind: 'choice', values: FAMILIES, placeholder: 'NAME', help: 'only the rules of one family' },
    basis: { kind: 'choice', values: ['spec', 'profile'], help: 'only the rules the spec states, or only those the target profile decides' },
    uncovered: { kind: 'boolean', help: 'only the rules no check covers (the gaps)' },
    suite: { kind: 'string', placeholder: 'GLOB', default: '**/*.yaml', help: 'the scenario suites counted as checks, a glob under --suites-dir' },
    'suites-dir': { kind: 'string', placeholder: 'DIR', default: join(PACKAGE_ROOT, 'suites'), defaultHelp: "the package's suites/", help: 'where the suites are' },
  },
});

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
  const input = readCommandLine(RULES_COMMAND, argv);
  if (!input) return 0;
  const { options } = input;
  const scenarios = await loadSuites(options['suites-dir'], options.suite, BUILTIN_CHECK_NAMES);
  // Every check that names a rule: scenarios, property families, and the built-in ones (the preflight's token form, the
  // rate-limit checks, the run-wide watches, the read-back, the stateful family, the isolation checks: plan/selection.ts).
  const checks: { id: string; rules: readonly string[] }[] = [
    ...scenarios.map((s) => ({ id: s.id, rules: s.scenario.rules })),
    ...PROPERTY_FAMILIES.map((f) => ({ id: `properties/${f.name}`, rules: f.rules })),
    ...Object.entries(BUILTIN_CHECKS).map(([id, rules]) => ({ id, rules })),
    // Checks that assert a profile rule only when the profile sets its key.
    ...Object.entries(PROFILE_RULES_OF_CHECK).map(([id, c]) => ({ id: `${id} (with ${c!.key})`, rules: [c!.rule] })),
  ];
  const checksOf = (id: string) => checks.filter((c) => c.rules.includes(id)).map((c) => c.id);
  const faultsOf = (id: string) => FAULTS.filter((f) => f.rule === id).map((f) => f.name);
  const rules = [...RULES]
    .filter((r) => !options.family || r.family === options.family)
    .filter((r) => !options.basis || r.basis === options.basis)
    .filter((r) => !options.uncovered || checksOf(r.id).length === 0)
    .sort(byFirstSection);
  if (options.json) {
    console.log(JSON.stringify(rules.map((r) => ({ ...r, checks: checksOf(r.id), faults: faultsOf(r.id) })), null, 2));
    return 0;
  }
  if (options.uncovered && rules.length === 0) {
    console.log(`No uncovered rule: every one of the ${RULES.length} rules is covered by a check.`);
    return 0;
  }
  const idWidth = Math.max(...rules.map((r) => r.id.length), 4);
  console.log(`${'RULE'.padEnd(idWidth)}  SECTION   BASIS     CHECKS  FAULTS  STATEMENT`);
  for (const r of rules) {
    const checks = checksOf(r.id).length;
    const faults = faultsOf(r.id).length;
    console.log(`${r.id.padEnd(idWidth)}  §${r.section.padEnd(8)} ${r.basis.padEnd(8)} ${(checks ? String(checks) : 'UNCOVERED').padStart(9)} ${String(faults || '-').padStart(6)}  ${r.statement}`);
  }
  const spec = rules.filter((r) => r.basis === 'spec').length;
  const gaps = rules.filter((r) => checksOf(r.id).length === 0).length;
  console.log(`\n${rules.length} rules (${spec} stated by the spec, ${rules.length - spec} left to the target profile); ${rules.length - gaps} covered by ${scenarios.length} scenarios, ${PROPERTY_FAMILIES.length} property families, and ${Object.keys(BUILTIN_CHECKS).length} built-in checks (the preflight's ${TOKEN_FORM_CHECK_ID}, the rate-limit checks and the run-wide watches, the read-back, the stateful family, the isolation checks); ${gaps} uncovered.`);
  return 0;
}
