/**
 * `npm run bench -- --only grade`: `grade` against `run` on the same traffic. For the clean reference
 * server and each catalog fault whose rule `grade` can judge from traffic (PASSIVE_RULES), one
 * `run --har` against the faulty server, then `grade` of that HAR: whether grade fails the fault's
 * rule as run does, and any rule grade fails that run does not (a false failure). Loopback only,
 * the server in this process at a raised limit (600/1s) so a run takes seconds.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startReferenceServer } from '../src/reference/server.ts';
import { FAULTS } from '../src/reference/faults.ts';
import { PASSIVE_RULES } from '../src/grade/passive-rules.ts';
import type { RunReport } from '../src/report/model.ts';
import { ROOT, runClockcheck } from '../test/support/cli.ts';

export interface GradeFaultFigures {
  readonly label: string;
  /** Faults whose rule grade judges from traffic, and that run caught. */
  readonly judgeable: number;
  /** Of those, the ones grade failed under the same rule. */
  readonly caught: number;
  readonly missed: readonly string[];
  /** Rules grade failed that run did not, per fault (clean included). */
  readonly falseFailures: readonly string[];
  /** Rules grade judged on the clean run's HAR. */
  readonly rulesJudgedClean: number;
}

const TOKEN = 'grade-bench-token-7f3a9c';
const PROFILE = join(ROOT, 'fixtures/profiles/reference.yaml');

function failedRules(report: RunReport): Set<string> {
  return new Set(report.coverage.filter((c) => c.outcome === 'failed').map((c) => c.rule.id));
}

async function runAndGrade(dir: string, fault: string | null): Promise<{ run: RunReport; grade: RunReport }> {
  const server = await startReferenceServer({ token: TOKEN, rateLimit: { limit: 600, windowMs: 1000 }, ...(fault ? { faults: [fault] } : {}) });
  const env = { ...process.env, CLOCKCHECK_TOKEN: TOKEN, CLOCKCHECK_WEBHOOK_SECRET: 'grade-bench-secret', NO_COLOR: '1' };
  try {
    const ca = join(dir, 'ca.pem');
    await writeFile(ca, server.tls.caPem);
    const runDir = join(dir, 'run');
    const run = await runClockcheck(['run', '--target', server.origin, '--ca', ca, '--profile', PROFILE, '--rate-limit', '600/1s', '--seed', '7', '--har', '--report-dir', runDir], env);
    const json = /^ {2}JSON {3}(.*report\.json)$/m.exec(run.stdout)?.[1];
    if (!json) throw new Error(`run with ${fault ?? 'no fault'} wrote no report: ${run.stderr.slice(0, 300)}`);
    const gradeDir = join(dir, 'grade');
    const graded = await runClockcheck(['grade', json.replace(/report\.json$/, 'exchanges.har'), '--profile', PROFILE, '--rate-limit', '600/1s', '--report-dir', gradeDir, '--quiet'], env);
    const gradeJson = (await import('node:fs')).readdirSync(gradeDir).map((d) => join(gradeDir, d, 'report.json'))[0];
    if (!gradeJson || graded.code === 2) throw new Error(`grade with ${fault ?? 'no fault'}: ${graded.stderr.slice(0, 300)}`);
    return { run: JSON.parse(await readFile(json, 'utf8')) as RunReport, grade: JSON.parse(await readFile(gradeJson, 'utf8')) as RunReport };
  } finally {
    await server.close();
  }
}

/** `names`: only these faults (default: every fault whose rule grade judges). */
export async function gradeFaults(names?: readonly string[]): Promise<GradeFaultFigures[]> {
  const falseFailures: string[] = [];
  const missed: string[] = [];
  let judgeable = 0;
  let caught = 0;
  let rulesJudgedClean = 0;
  for (const fault of [null, ...FAULTS.filter((f) => PASSIVE_RULES[f.rule] !== undefined && (names === undefined || names.includes(f.name))).map((f) => f.name)]) {
    const dir = await mkdtemp(join(tmpdir(), 'clockcheck-grade-bench-'));
    try {
      const { run, grade } = await runAndGrade(dir, fault);
      const [ran, graded] = [failedRules(run), failedRules(grade)];
      for (const rule of graded) if (!ran.has(rule)) falseFailures.push(`${fault ?? 'clean'}: ${rule}`);
      if (fault === null) rulesJudgedClean = grade.summary.rulesCovered;
      else {
        const rule = FAULTS.find((f) => f.name === fault)!.rule;
        if (ran.has(rule)) {
          judgeable++;
          if (graded.has(rule)) caught++;
          else missed.push(`${fault} (${rule})`);
        }
      }
      process.stderr.write(`grade bench: ${fault ?? 'clean'}: run failed [${[...ran].join(' ')}], grade failed [${[...graded].join(' ')}]\n`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  return [{ label: 'grade vs run on the same traffic', judgeable, caught, missed, falseFailures, rulesJudgedClean }];
}
