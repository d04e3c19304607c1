import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RULES, type Rule } from '../../contract/rules.ts';
import { FAULTS } from '../../reference/faults.ts';
import { BUILTIN_CHECK_NAMES } from '../../checks/names.ts';
import { loadSuites } from '../../scenarios/loader.ts';
import { parseCommandArgs } from '../args.ts';
import { PROPERTY_FAMILIES } from '../../properties/families.ts';
import { PROFILE_RULES_OF_CHECK, RATE_LIMIT_CHECKS } from '../../ratelimit/phase.ts';
import { MONITOR_CHECK_ID } from '../../ratelimit/monitor.ts';
import { TOKEN_FORM_CHECK_ID } from '../../run/preflight.ts';

const PACKAGE_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

const USAGE = `clockcheck rules [--json] [--family NAME] [--basis spec|profile] [--uncovered] [--suite GLOB]

Prints the rule catalog: every normative statement of the spec with its stable ID and section.
Columns: ID, section, basis (spec: stated; profile: the spec says "not shown", the target profile decides),
the number of checks (scenarios, property families, rate-limit checks) that cover the rule (UNCOVERED when none: a visible gap), the reference server's
faults that break it, and the statement. --uncovered lists only the gaps.`;

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
    uncovered: { type: 'boolean', default: false },
    suite: { type: 'string', default: '**/*.yaml' },
    'suites-dir': { type: 'string', default: join(PACKAGE_ROOT, 'suites') },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const scenarios = await loadSuites(values['suites-dir'], values.suite, BUILTIN_CHECK_NAMES);
  // Every check that names a rule: scenarios, property families, the rate-limit checks and the run-wide monitor.
  const checks: { id: string; rules: readonly string[] }[] = [
    ...scenarios.map((s) => ({ id: s.id, rules: s.scenario.rules })),
    ...PROPERTY_FAMILIES.map((f) => ({ id: `properties/${f.name}`, rules: f.rules })),
    ...Object.entries(RATE_LIMIT_CHECKS).map(([id, c]) => ({ id, rules: c.rules })),
    { id: MONITOR_CHECK_ID, rules: ['RATE-LIMIT-CAP'] },
    { id: TOKEN_FORM_CHECK_ID, rules: ['AUTH-HEADER-RAW'] },
    // Checks that assert a profile rule only when the profile sets its key.
    ...Object.entries(PROFILE_RULES_OF_CHECK).map(([id, c]) => ({ id: `${id} (with ${c!.key})`, rules: [c!.rule] })),
  ];
  const checksOf = (id: string) => checks.filter((c) => c.rules.includes(id)).map((c) => c.id);
  const faultsOf = (id: string) => FAULTS.filter((f) => f.rule === id).map((f) => f.name);
  const rules = [...RULES]
    .filter((r) => !values.family || r.family === values.family)
    .filter((r) => !values.basis || r.basis === values.basis)
    .filter((r) => !values.uncovered || checksOf(r.id).length === 0)
    .sort(byFirstSection);
  if (values.json) {
    console.log(JSON.stringify(rules.map((r) => ({ ...r, checks: checksOf(r.id), faults: faultsOf(r.id) })), null, 2));
    return 0;
  }
  if (values.uncovered && rules.length === 0) {
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
  console.log(`\n${rules.length} rules (${spec} stated by the spec, ${rules.length - spec} left to the target profile); ${rules.length - gaps} covered by ${scenarios.length} scenarios, ${PROPERTY_FAMILIES.length} property families, ${Object.keys(RATE_LIMIT_CHECKS).length + 1} rate-limit checks, and the preflight (${TOKEN_FORM_CHECK_ID}); ${gaps} uncovered.`);
  return 0;
}
