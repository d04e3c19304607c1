import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError } from '../../errors.ts';
import { isFaultName } from '../../reference/faults.ts';
import { DIALECT_NAMES, isDialectName, type DialectName } from '../../reference/dialect.ts';
import { formatDuration } from '../../duration.ts';
import { selftest, type FaultDetection } from '../../run/selftest.ts';
import { integerOption, parseCommandArgs } from '../args.ts';

const USAGE = `clockcheck selftest [--dialect all|standard|alternative|laravel] [--fault NAME]... [--suite GLOB]
                   [--seed N] [--budget 550] [--concurrency 2] [--report-dir DIR]

In each dialect of the reference server (default: all three), runs the full certification against the
clean embedded server, then once per injected fault, and prints the detection matrix. A rate-limit fault
is certified by the rate-limit phase (bursts at the embedded 60-per-second window); any other by the
scenarios and generated cases (at 60 per 100 ms, no bursts). A fault that makes the choice a dialect
already makes (email-format-unchecked where e-mails are not validated) is not run there. Exit 0 when,
in every dialect, the clean server passes every check and every fault is caught by a failing check of
its own rule; 1 otherwise.`;

const PACKAGE_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

function line(d: FaultDetection): string {
  const mark = d.verdict === 'caught' ? 'caught' : 'MISSED';
  const bursts = d.catchingChecks.filter((id) => id.startsWith('rate-limit/')).length;
  const by = bursts > 0 ? 'bursts' : d.catchingProperties === 0 ? 'scenarios' : d.catchingProperties === d.catchingChecks.length ? 'properties' : 'both';
  const detail =
    d.verdict === 'caught'
      ? `[${by.padEnd(10)}] ` + d.catchingChecks.slice(0, 3).join(', ') + (d.catchingChecks.length > 3 ? ` +${d.catchingChecks.length - 3}` : '')
      : d.otherRules.length > 0 ? `failed only on ${d.otherRules.join(', ')}` : 'no check failed';
  const again = d.attempts > 1 ? ` (certified ${d.attempts} times: the first left ${d.fault.rule} unjudged)` : '';
  return `${mark}  ${d.dialect.padEnd(11)} ${d.fault.name.padEnd(32)} ${d.fault.rule.padEnd(28)} ${detail}${again}`;
}

export async function selftestCommand(argv: string[]): Promise<number> {
  const { values } = parseCommandArgs('selftest', argv, {
    dialect: { type: 'string', default: 'all' },
    fault: { type: 'string', multiple: true, default: [] },
    suite: { type: 'string', default: '**/*.yaml' },
    'suites-dir': { type: 'string', default: join(PACKAGE_ROOT, 'suites') },
    seed: { type: 'string' },
    budget: { type: 'string' },
    concurrency: { type: 'string' },
    'report-dir': { type: 'string', default: 'reports' },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  for (const name of values.fault) if (!isFaultName(name)) throw new UsageError(`unknown fault "${name}"; \`clockcheck serve --list-faults\` lists them`);
  const seed = integerOption('seed', values.seed, 1, 0, 2 ** 31 - 1);
  if (values.dialect !== 'all' && !isDialectName(values.dialect)) throw new UsageError(`selftest: --dialect is all or one of ${DIALECT_NAMES.join(', ')}`);
  const dialects = values.dialect === 'all' ? DIALECT_NAMES : [values.dialect as DialectName];
  const result = await selftest({
    suitesDir: values['suites-dir'],
    suiteGlob: values.suite,
    seed,
    budget: integerOption('budget', values.budget, 550, 0, 100_000),
    faults: values.fault.length > 0 ? values.fault : undefined,
    dialects,
    concurrency: integerOption('concurrency', values.concurrency, 2, 1, 8),
    onDetection: (d) => console.error(line(d)),
  });
  const detections = result.dialects.flatMap((d) => d.detections);
  const count = (v: FaultDetection['verdict']) => detections.filter((d) => d.verdict === v).length;
  for (const { dialect, clean, notApplicable } of result.dialects) {
    console.log(`\nclean reference server, ${dialect} dialect: ${clean.summary.passed} passed, ${clean.summary.failed} failed, ${clean.summary.errored} errored, ${clean.summary.skipped} skipped; ${clean.requests.made} requests; rules covered ${clean.summary.rulesCovered}/${clean.summary.rulesTotal}`);
    for (const check of clean.checks.filter((c) => c.status === 'failed' || c.status === 'errored')) {
      console.log(`  ✗ ${check.id}: ${check.findings[0] ? `${check.findings[0].ruleId} expected ${check.findings[0].expected}; actual ${check.findings[0].actual}` : check.reason}`);
    }
    if (notApplicable.length > 0) console.log(`  not run in this dialect (it already makes that choice): ${notApplicable.map((f) => f.name).join(', ')}`);
  }
  console.log('\nDetection matrix');
  for (const d of detections) console.log(line(d));
  const byProperties = detections.filter((d) => d.catchingProperties > 0).length;
  const byBursts = detections.filter((d) => d.catchingChecks.some((id) => id.startsWith('rate-limit/'))).length;
  // The misses again, with how the checks of their rule ended, where a log's tail shows them.
  for (const d of detections.filter((x) => x.verdict === 'missed')) {
    console.log(`\n${line(d)}`);
    for (const check of d.ruleChecks) console.log(`  ${check}`);
  }
  console.log(`\n${count('caught')} caught (${byProperties} of them also or only by generated cases, ${byBursts} by rate-limit bursts), ${count('missed')} missed of ${detections.length} fault certifications in ${result.dialects.length} dialect(s); ${formatDuration(result.durationMs)}`);
  await mkdir(values['report-dir'], { recursive: true });
  const file = join(values['report-dir'], `selftest-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  const dialectJson = result.dialects.map((d) => ({
    dialect: d.dialect,
    clean: d.clean.summary,
    notApplicable: d.notApplicable.map((f) => f.name),
    detections: d.detections.map((x) => ({ fault: x.fault.name, rule: x.fault.rule, verdict: x.verdict, catchingChecks: x.catchingChecks, catchingProperties: x.catchingProperties, otherRules: x.otherRules, attempts: x.attempts, ...(x.verdict === 'missed' ? { ruleChecks: x.ruleChecks } : {}) })),
  }));
  await writeFile(file, JSON.stringify({ seed, passed: result.passed, durationMs: result.durationMs, dialects: dialectJson }, null, 2));
  console.log(`written ${file}`);
  console.log(result.passed ? 'SELFTEST PASSED' : 'SELFTEST FAILED');
  return result.passed ? 0 : 1;
}
