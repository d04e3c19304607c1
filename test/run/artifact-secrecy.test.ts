import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redactor } from '../../src/client/redaction.ts';
import { SIGNATURE_HEADER, TIMESTAMP_HEADER } from '../../src/contract/webhook-notification.ts';
import { parseProfile } from '../../src/profile/profile.ts';
import { generateTlsIdentity } from '../../src/tls/certificate.ts';
import { startRunSink, type SinkProfile } from '../../src/webhooks/run-sink.ts';
import { DEV_BIN, ROOT, filesUnder, runClockcheck, type CliResult } from '../support/cli.ts';
import { secretFindings } from '../support/secret-scan.ts';
import { signDelivery } from '../support/webhooks.ts';
import { echoForms, startEchoTarget, type EchoTarget } from './echo-target.ts';

/**
 * Issue 24: the token leaves in no form, in any artifact. Targets that echo every Authorization
 * value they get, in every form (echo-target.ts), are certified, re-run with --last-failed (after the
 * token was revoked: the run cannot be made), loaded and read by init; a sink gets notifications
 * that echo the secret. Every file each command wrote (the whole report directory: report.json,
 * report.html, junit.xml, regressions.yaml, the re-run's reports; load.json, load.html; init's
 * profile; the sink's log) and everything each printed (with and without --quiet, with
 * CLOCKCHECK_DEBUG) is scanned by the decoding checker (test/support/secret-scan.ts, written apart
 * from the redactor) for the token and for each Authorization value sent that holds it (`<token>`,
 * `Bearer <token>`). The canary's base64 holds + and / at every offset, so the forms that escape them
 * (a query's %2B, PHP's `\/`) are exercised too. The commands run two at a time.
 */
const TOKEN = 'Cc+/=%<&tok-??>>~~-7f3a9b2e41d0';
const SECRET = 'whsec+/=%<&-??>>~~-5e0c1d';
const ENV = { ...process.env, CLOCKCHECK_TOKEN: TOKEN, NO_COLOR: '1' };
/** Issue 49: a second company's token, named by the profile's second_company.token_env; the echo target refuses it, echoing it in every form. */
const SECOND = 'Dd+/=%<&second-??>>~~-9b1c4e';

/** What the checker finds of each secret value in `text`, as `where: value: how`. */
function findings(where: string, text: string, values: readonly string[]): string[] {
  return values.flatMap((value) => secretFindings(text, value).map((how) => `${where}: ${value.replace(TOKEN, '<token>').replace(SECRET, '<secret>')}: ${how}`));
}

/** The findings in every file under `dir` and in the commands' output. */
async function leaksOf(dir: string, outputs: Readonly<Record<string, CliResult>>, values: readonly string[]): Promise<string[]> {
  const leaks: string[] = [];
  for (const file of await filesUnder(dir)) leaks.push(...findings(file.slice(dir.length + 1), await readFile(file, 'utf8'), values));
  for (const [name, result] of Object.entries(outputs)) leaks.push(...findings(`${name} stdout`, result.stdout, values), ...findings(`${name} stderr`, result.stderr, values));
  return leaks;
}

/** The Authorization values a target received that hold the token: those sent on the token's behalf. */
function valuesSent(target: EchoTarget): string[] {
  return [TOKEN, ...[...target.received].filter((v) => v.includes(TOKEN) && v !== TOKEN)];
}

/** A notification (published form) whose every part echoes `secret` in every form; signed with it when `signed`. */
async function postEchoingNotification(url: string, secret: string, signed: boolean): Promise<number> {
  const forms = echoForms(secret);
  const body = JSON.stringify({ payload: { event: `users ${secret}`, data: { id: secret, operation: `users_created ${forms.base64After1}`, last_updated_at: false } }, echo: forms });
  const headers: Record<string, string> = { 'content-type': 'application/json', 'x-echo-percent': forms.percent!, 'x-echo-base64': forms.base64! };
  if (signed) {
    const timestamp = String(Math.floor(Date.now() / 1000));
    Object.assign(headers, { [TIMESTAMP_HEADER]: timestamp, [SIGNATURE_HEADER]: signDelivery(secret, timestamp, body) });
  }
  const answer = await fetch(new URL(`/hook?s=${forms.percent}`, url), { method: 'POST', body, headers });
  return answer.status;
}

/** `clockcheck sink` logging to `log` until two deliveries came: one signed echoing the secret, one not echoing the access token (in CLOCKCHECK_TOKEN of its shell). */
function sinkCommand(log: string): Promise<CliResult> {
  const child = spawn(process.execPath, [DEV_BIN, 'sink', '--secret-env', 'ARTIFACT_SECRET', '--log', log, '--count', '2', '--max-time', '40s'], { cwd: ROOT, env: { ...ENV, ARTIFACT_SECRET: SECRET } });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      const before = stdout;
      stdout += d;
      const url = /^listening (\S+)$/m.exec(stdout)?.[1];
      if (url && !/^listening /m.test(before)) void Promise.all([postEchoingNotification(url, SECRET, true), postEchoingNotification(url, TOKEN, false)]).catch(reject);
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

let work: string;
let caFile: string;
let runTarget: EchoTarget;
let toolTarget: EchoTarget;
const runs: Record<string, CliResult> = {};
const secondRuns: Record<string, CliResult> = {};
const tools: Record<string, CliResult> = {};

/** A run that fails (Bearer only, generated cases accepted), then --last-failed once the token is revoked: the run cannot be made. */
async function runThenRerun(reports: string): Promise<void> {
  const common = ['--target', runTarget.origin, '--ca', caFile, '--rate-limit', '600/1s', '--report-dir', reports];
  // Not quiet: the progress lines go to stderr (plain: not a terminal), the summary and the replay lines to stdout.
  runs.run = await runClockcheck(['run', ...common, '--only', 'auth/token-form,auth/raw-token-accepted,properties/user-edit', '--budget', '4', '--seed', '3'], ENV);
  // The isolation checks send the second company's token (served as Bearer too, and echoed like the first): its reports are apart.
  const profile = join(work, 'second-company.yaml');
  await writeFile(profile, 'second_company: { token_env: ARTIFACT_SECOND_TOKEN }\n');
  const second = ['--target', runTarget.origin, '--ca', caFile, '--rate-limit', '600/1s', '--report-dir', join(work, 'second-reports'), '--profile', profile];
  runTarget.set({ accepts: 'bearer', servesAll: true, alsoAccepts: SECOND });
  secondRuns.run = await runClockcheck(['run', ...second, '--only', 'isolation'], { ...ENV, ARTIFACT_SECOND_TOKEN: SECOND });
  runTarget.set({ accepts: 'none', servesAll: true });
  // --last-failed reads its state from the newest report of the target in --report-dir, and writes its own there.
  runs['run --last-failed'] = await runClockcheck(['run', ...common, '--last-failed', '--quiet'], { ...ENV, CLOCKCHECK_DEBUG: '1' });
}

/** load and init against a target that serves the raw token, then the sink. */
async function loadInitSink(dir: string): Promise<void> {
  const target = ['--target', toolTarget.origin, '--ca', caFile];
  // A token pasted into the endpoint's query, percent-encoded as Python's quote() does (the slash kept).
  const endpoint = `GET:/users?page_size=10&token=${encodeURIComponent(TOKEN).replace(/%2F/g, '/')}`;
  tools.load = await runClockcheck(['load', ...target, '--endpoint', endpoint, '--amount', '10', '--connections', '1', '--report-dir', join(dir, 'load')], ENV);
  await mkdir(join(dir, 'init'));
  tools.init = await runClockcheck(['init', ...target, '--rate-limit', '600/1s', '--out', join(dir, 'init', 'profile.yaml')], ENV);
  await mkdir(join(dir, 'sink'));
  tools.sink = await sinkCommand(join(dir, 'sink', 'deliveries.jsonl'));
}

beforeAll(async () => {
  const tls = await generateTlsIdentity();
  work = await mkdtemp(join(tmpdir(), 'clockcheck-artifacts-'));
  caFile = join(work, 'ca.pem');
  await writeFile(caFile, tls.caPem);
  runTarget = await startEchoTarget(TOKEN, tls, { accepts: 'bearer', servesAll: true });
  toolTarget = await startEchoTarget(TOKEN, tls, { accepts: 'raw', servesAll: true, records: true });
  await Promise.all([runThenRerun(join(work, 'run-reports')), loadInitSink(join(work, 'tools'))]);
}, 90_000);
afterAll(async () => {
  await runTarget?.close();
  await toolTarget?.close();
});

describe('a run, its regressions.yaml, and a --last-failed re-run once the token is revoked', () => {
  it('fails and writes regressions.yaml; the re-run cannot be made and says why, and writes its reports', async () => {
    expect(runs.run!.code).toBe(1);
    expect(runs['run --last-failed']!.code).toBe(2);
    expect(runs['run --last-failed']!.stderr).toMatch(/^clockcheck: .*refused/);
    const names = (await filesUnder(join(work, 'run-reports'))).map((f) => f.split('/').pop());
    expect(names.filter((n) => n === 'report.json' || n === 'report.html' || n === 'junit.xml')).toHaveLength(6);
    expect(names).toContain('regressions.yaml');
  });

  it('sent the token raw and as `Bearer <token>`, and the target echoed both', () => {
    expect(valuesSent(runTarget)).toEqual([TOKEN, `Bearer ${TOKEN}`]);
  });

  it('the token and each Authorization value sent are in no form in any file of the report directory, nor in any output', async () => {
    expect(await leaksOf(join(work, 'run-reports'), runs, valuesSent(runTarget))).toEqual([]);
    // The curl lines that reproduce a failure were written, reading the token from the environment.
    const html = (await filesUnder(join(work, 'run-reports'))).find((f) => f.endsWith('report.html'))!;
    expect(await readFile(html, 'utf8')).toContain('$CLOCKCHECK_TOKEN');
  });
});

describe("a run with a second company's token (issue 49)", () => {
  it('sent the second token, which the target echoed in every form; neither token is in any file of its reports or its output, and its curl reads $CLOCKCHECK_SECOND_TOKEN', async () => {
    const sent = [...runTarget.received].filter((v) => v.includes(SECOND));
    expect(sent.length).toBeGreaterThan(0);
    // Failed: the target serves Bearer only (AUTH-HEADER-RAW), and every PUT of the other company's records (ISO-ITEM-SCOPED).
    expect(secondRuns.run!.code, secondRuns.run!.stderr).toBe(1);
    expect(await leaksOf(join(work, 'second-reports'), secondRuns, [...valuesSent(runTarget), ...sent])).toEqual([]);
    const html = (await filesUnder(join(work, 'second-reports'))).find((f) => f.endsWith('report.html'))!;
    expect(await readFile(html, 'utf8')).toContain('$CLOCKCHECK_SECOND_TOKEN');
  });
});

describe('load, init and clockcheck sink', () => {
  it('load writes its reports, init its profile, the sink its log of the two deliveries', async () => {
    expect(tools.load!.code, tools.load!.stderr).toBe(0);
    expect(tools.init!.code, tools.init!.stderr).toBe(0);
    expect(tools.sink!.code, tools.sink!.stderr).toBe(0);
    const names = (await filesUnder(join(work, 'tools'))).map((f) => f.split('/').pop());
    expect(names).toEqual(expect.arrayContaining(['load.json', 'load.html', 'profile.yaml', 'deliveries.jsonl']));
    expect(tools.sink!.stdout).toMatch(/signature verified/);
  });

  it('the token is in no form in what load and init wrote or printed', async () => {
    expect(valuesSent(toolTarget)).toEqual([TOKEN]);
    const { sink: _, ...commands } = tools;
    expect(await leaksOf(join(work, 'tools'), commands, [TOKEN])).toEqual([]);
  });

  it("the subscription's secret and the access token are in no form in the sink's log or its output", async () => {
    expect(await leaksOf(join(work, 'tools', 'sink'), { sink: tools.sink! }, [SECRET, TOKEN])).toEqual([]);
  });
});

describe("the run's sink", () => {
  it('keeps a notification that echoes the token and the secret without them, for the checks and the report', async () => {
    const { webhook } = parseProfile('webhook:\n  sink: { listen: 127.0.0.1:0 }\n', 'profile.yaml');
    const sink = await startRunSink(webhook as SinkProfile, { secret: SECRET, redactor: new Redactor(TOKEN, [SECRET]), nextExchangeId: () => 7 });
    try {
      expect(await postEchoingNotification(sink.url, SECRET, true)).toBe(200);
      expect(await postEchoingNotification(sink.url, TOKEN, false)).toBe(200);
      const [signed, unsigned] = sink.sink.deliveries;
      expect(signed!.signature).toBe('verified');
      const kept = JSON.stringify([sink.sink.deliveries, sink.exchangeOf(signed!), sink.exchangeOf(unsigned!)]);
      expect([...findings('kept', kept, [TOKEN]), ...findings('kept', kept, [SECRET])]).toEqual([]);
    } finally {
      await sink.close();
    }
  });
});
