/**
 * `npm run bench [-- --only NAME] [-- --duration S]`: the project's benchmarks. Figures go to stdout
 * and to reports/bench/<timestamp>.json. Loopback only; every run is bounded in time.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { referenceThroughput, type ThroughputFigures } from './reference-throughput.ts';
import { runnerVersusUndici, type LoopFigures } from './runner-vs-undici.ts';
import { embeddedCertification, npmStartCertification, type CertificationFigures } from './embedded-certification.ts';
import { generatorThroughput, type GeneratorFigures } from './generators.ts';
import { loadVersusAutocannon, type RatioFigures } from './load-vs-autocannon.ts';
import { workloadVersusAutocannon } from './workload-vs-autocannon.ts';
import { initDiscovery, type InitFigures } from './init-discovery.ts';
import { hostileRuns, type HostileRunFigures } from './hostile-runs.ts';
import { cliStartup, type StartupFigures } from './cli-startup.ts';
import { planFigures, type PlanFigures } from './plan-figures.ts';
import { gradeFaults, type GradeFaultFigures } from './grade-faults.ts';

const { values } = parseArgs({
  options: { only: { type: 'string' }, duration: { type: 'string', default: '10' }, deadline: { type: 'string', default: '300' } },
});
const duration = Number(values.duration);
const RAISED = { limit: 100_000_000, windowMs: 60_000 };

type Figures = ThroughputFigures | LoopFigures | CertificationFigures | GeneratorFigures | RatioFigures | InitFigures | HostileRunFigures | StartupFigures | PlanFigures | GradeFaultFigures;

const BENCHES: Record<string, () => Promise<Figures[]>> = {
  reference: async () => [
    await referenceThroughput({ label: 'GET /breaks, limit raised', path: '/api/public/breaks', connections: 10, durationSeconds: duration, rateLimit: RAISED }),
    await referenceThroughput({ label: 'GET /breaks, limit off', path: '/api/public/breaks', connections: 10, durationSeconds: duration, rateLimit: null }),
    await referenceThroughput({ label: 'GET /users?sort=firstName, limit raised', path: '/api/public/users?sort=firstName', connections: 10, durationSeconds: duration, rateLimit: RAISED }),
  ],
  runner: () => runnerVersusUndici({ durationSeconds: duration, path: '/breaks' }),
  certification: async () => [await npmStartCertification(), await embeddedCertification()],
  generators: async () => generatorThroughput({ secondsPerFamily: 2 }),
  load: () => loadVersusAutocannon({ durationSeconds: duration, connections: 10 }),
  workload: () => workloadVersusAutocannon({ durationSeconds: duration, connections: 10 }),
  init: async () => [
    await initDiscovery('standard', false),
    await initDiscovery('standard', true),
    await initDiscovery('alternative', true),
    await initDiscovery('laravel', true),
  ],
  hostile: () => hostileRuns(Number(values.deadline)),
  startup: async () => [cliStartup(['--help']), cliStartup(['--version']), cliStartup(['rules'])],
  plan: planFigures,
  grade: () => gradeFaults(),
};

function describe(f: Figures): string {
  if ('falseFailures' in f) {
    return `${f.label}: ${f.caught}/${f.judgeable} faults whose rule a recording shows failed by grade under that rule${f.missed.length ? ` (missed: ${f.missed.join(', ')})` : ''}; ${f.falseFailures.length} false failures${f.falseFailures.length ? ` (${f.falseFailures.join('; ')})` : ''}; ${f.rulesJudgedClean} rules judged on the clean run's HAR`;
  }
  if ('requestsPerRule' in f) {
    const eta = `${Math.floor(f.etaMs / 60_000)} min ${String(Math.round((f.etaMs % 60_000) / 1000)).padStart(2, '0')} s`;
    return (
      `${f.label.padEnd(36)} ETA ${eta}: ${f.planned} requests planned (${f.paced} paced, ${f.phaseRequests} in the rate-limit phase over ${f.phaseWindows.toFixed(1)} windows, ${f.contractWindows.toFixed(2)} of them beyond its conformance calls)` +
      `${f.provisioning > 0 ? ` + up to ${f.provisioning} creating what checks need` : ''}; ${f.rules} rules judged, ${f.requestsPerRule.toFixed(2)} requests per rule; ` +
      `${f.faultsNamed}/${f.faultsTotal} catalog faults have their rule in the plan`
    );
  }
  if ('startupMs' in f) return `${f.label.padEnd(52)} ${f.startupMs.toFixed(0).padStart(7)} ms median (${f.runsMs.length} runs, ${Math.min(...f.runsMs).toFixed(0)}-${Math.max(...f.runsMs).toFixed(0)} ms)`;
  if ('peakRssBytes' in f) {
    const end = f.killed ? `killed at the ${values.deadline} s deadline (no end)` : `exit ${f.exitCode}`;
    return `${f.label.padEnd(52)} ${(f.wallMs / 1000).toFixed(1)} s wall, ${end}, peak RSS ${(f.peakRssBytes / 2 ** 20).toFixed(0)} MB, report ${f.reportWritten ? 'written' : 'MISSING'}, token ${f.tokenInArtifacts ? 'LEAKED' : 'in no artifact'}${f.requestsReceived === null ? '' : `, ${f.requestsReceived} requests received`}`;
  }
  if ('found' in f) return `${f.label.padEnd(52)} ${(f.wallMs / 1000).toFixed(2)} s wall, ${f.requests} requests, ${f.found} keys found, ${f.missing} left`;
  if ('ratio' in f) return `${f.label.padEnd(52)} ${f.ratio.toFixed(3).padStart(7)}`;
  if ('payloadsPerSecond' in f) {
    return `${f.label.padEnd(52)} ${f.payloadsPerSecond.toFixed(0).padStart(7)} payloads/s  (${f.payloads} in ${f.seconds.toFixed(1)} s, ${(f.validShare * 100).toFixed(0)}% valid)`;
  }
  if ('latencyP50Ms' in f) {
    return `${f.label.padEnd(52)} ${f.requestsPerSecond.toFixed(0).padStart(7)} req/s  p50 ${f.latencyP50Ms} ms  p99 ${f.latencyP99Ms} ms  total ${f.total}  non-2xx ${f.non2xx}  errors ${f.errors}`;
  }
  if ('checks' in f) {
    return `${f.label.padEnd(52)} ${(f.wallMs / 1000).toFixed(2)} s wall (${f.runsMs.map((ms) => (ms / 1000).toFixed(1)).join(', ')}), ${f.requests} requests, ${f.checks} checks (${f.failed} failed), rules covered ${f.rulesCovered}/${f.rulesTotal}`;
  }
  return `${f.label.padEnd(52)} ${f.requestsPerSecond.toFixed(0).padStart(7)} req/s  (${f.requests} requests in ${f.seconds.toFixed(1)} s, sequential)`;
}

const selected = values.only ? { [values.only]: BENCHES[values.only] } : BENCHES;
const results: Record<string, unknown> = {};
for (const [name, bench] of Object.entries(selected)) {
  if (!bench) throw new Error(`unknown bench "${values.only}"; known: ${Object.keys(BENCHES).join(', ')}`);
  console.log(`# ${name}`);
  const figures = await bench();
  for (const f of figures) console.log(describe(f));
  results[name] = figures;
}
await mkdir('reports/bench', { recursive: true });
const file = `reports/bench/${new Date().toISOString().replace(/[:.]/g, '-')}.json`;
await writeFile(file, JSON.stringify({ node: process.version, durationSeconds: duration, results }, null, 2));
console.log(`\nwritten ${file}`);
