import { appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../../errors.ts';
import { generateTlsIdentity, writeCaFile } from '../../tls/certificate.ts';
import { PUBLISHED_FORM } from '../../contract/webhook-notification.ts';
import { loadProfile } from '../../profile/profile.ts';
import { listenAddress } from '../../webhooks/run-sink.ts';
import { startSink } from '../../webhooks/sink.ts';
import { Redactor } from '../../client/redaction.ts';
import type { Delivery } from '../../webhooks/delivery.ts';
import { defineCommand } from '../../input/option-table.ts';
import { durationText } from '../../input/duration-text.ts';
import { readCommandLine } from '../command-line.ts';

export const SINK_COMMAND = defineCommand({
  name: 'sink',
  description: `Receives a target's webhook notifications, for debugging them (as \`stripe listen\` does for Stripe):
prints a line per delivery, checks its signature (by default x-webhook-signature, the hex HMAC-SHA256
of x-webhook-timestamp + body) with the secret in the environment variable --secret-env names (never
on the command line), checks its payload against the form, answers --status, and appends each
delivery to --log as one JSON line. Anything that is not a POST of JSON within --max-body bytes is
refused with a 4xx. Point the subscription at the printed URL (through a tunnel if the target is not
on this machine).
--profile reads the notification form (webhook.notification), the secret's variable (secret_env),
signature_tolerance and the listen address (sink.listen) from a run's profile, so the sink reads
notifications as \`clockcheck run\` judges them; the options override it.
Stops on Ctrl-C, after --count deliveries, or at --max-time (exit 1 when --count deliveries did
not arrive by then).`,
  options: {
    port: { kind: 'integer', placeholder: 'N', min: 0, max: 65535, defaultHelp: "the profile's sink.listen, else 0 (a free port)", help: 'the port to listen on' },
    host: { kind: 'string', placeholder: 'ADDR', defaultHelp: "the profile's sink.listen, else 127.0.0.1", help: 'the address to listen on' },
    'secret-env': { kind: 'string', placeholder: 'NAME', defaultHelp: "the profile's webhook.secret_env", help: "the environment variable that holds the subscription's secret; without one, signatures are not checked" },
    profile: { kind: 'string', placeholder: 'FILE', help: "a run's profile, to read notifications as the run judges them" },
    status: { kind: 'integer', placeholder: 'N', min: 200, max: 599, default: 200, help: "the status to answer (another exercises the sender's retries)" },
    log: { kind: 'string', placeholder: 'FILE', help: 'append each delivery to FILE as one JSON line' },
    'max-body': { kind: 'integer', placeholder: 'BYTES', min: 1, max: 16 * 1024 * 1024, default: 64 * 1024, help: 'the largest body accepted' },
    tls: { kind: 'boolean', help: 'serve HTTPS with a fresh certificate (its CA file is printed)' },
    count: { kind: 'integer', placeholder: 'N', min: 1, max: 1_000_000, help: 'stop after N deliveries' },
    'max-time': { kind: 'duration', placeholder: 'DURATION', help: 'stop after this long' },
  },
});

/** `#1 2026-… POST / users_created id=12; signature verified; answered 200`. */
function describeDelivery(d: Delivery): string {
  const what = d.payload.ok ? `${d.names.operation} id=${d.names.id}` : `payload not in the form: ${d.payload.why}`;
  const signature = typeof d.signature === 'string' ? `signature ${d.signature}` : `signature FAILED: ${d.signature.failed}`;
  return `#${d.id} ${d.receivedAt} POST ${d.path} ${what}; ${signature}; answered ${d.status}`;
}

/** The closing line: deliveries, how their checks ended, and what was refused. */
function summary(deliveries: readonly Delivery[], dropped: number, refused: Readonly<Record<string, number>>): string {
  const failedSignatures = deliveries.filter((d) => typeof d.signature === 'object').length;
  const notInForm = deliveries.filter((d) => !d.payload.ok).length;
  const counts = [failedSignatures > 0 ? `${failedSignatures} signature FAILED` : '', notInForm > 0 ? `${notInForm} not in the form` : ''].filter(Boolean);
  const refusals = Object.entries(refused).map(([why, n]) => `${n} ${why}`);
  return `${deliveries.length + dropped} deliveries${counts.length > 0 ? ` (${counts.join(', ')})` : ''}${refusals.length > 0 ? `; refused: ${refusals.join(', ')}` : ''}`;
}

export async function sinkCommand(argv: string[]): Promise<number> {
  const input = readCommandLine(SINK_COMMAND, argv);
  if (!input) return 0;
  const { options } = input;
  const profile = options.profile === undefined ? undefined : await loadProfile(options.profile);
  const webhook = profile?.webhook;
  if (options.profile !== undefined && !webhook) throw new UsageError(`--profile ${options.profile}: the profile has no webhook section to read the notification form from`);
  const listen = webhook?.sink ? listenAddress(webhook.sink.listen) : { host: '127.0.0.1', port: 0 };
  const secretEnv = options['secret-env'] ?? webhook?.secret_env;
  const secret = secretEnv === undefined ? null : process.env[secretEnv];
  if (secretEnv !== undefined && !secret) throw new UsageError(`${options['secret-env'] === undefined ? 'the profile\'s webhook.secret_env' : '--secret-env'} ${secretEnv}: that environment variable is empty or not set`);
  const count = options.count ?? null;
  const maxTimeMs = options['max-time'] ?? null;
  const form = webhook?.notification ?? PUBLISHED_FORM;
  const tls = options.tls ? await generateTlsIdentity() : undefined;

  let logging = Promise.resolve();
  let stop: (reason: 'signal' | 'count' | 'time') => void = () => undefined;
  const stopped = new Promise<'signal' | 'count' | 'time'>((resolve) => (stop = resolve));
  const sink = await startSink({
    host: options.host ?? listen.host,
    port: options.port ?? listen.port,
    secret: secret ?? null,
    // The access token too, when it is in this shell (the profile's token_env, else CLOCKCHECK_TOKEN): a target may echo it in a notification.
    ...sinkRedactor(process.env[profile?.token_env ?? 'CLOCKCHECK_TOKEN'], secret ?? null),
    form,
    status: options.status,
    maxBodyBytes: options['max-body'],
    ...(webhook ? { toleranceSeconds: webhook.signature_tolerance / 1000 } : {}),
    ...(tls ? { tls } : {}),
    onDelivery: (delivery) => {
      console.log(describeDelivery(delivery));
      const log = options.log;
      if (log) logging = logging.then(() => appendFile(log, `${JSON.stringify(delivery)}\n`, 'utf8')).catch((error: Error) => console.error(`sink: cannot write ${log}: ${error.message}`));
      if (count !== null && delivery.id >= count) stop('count');
    },
  });
  console.log(`listening ${sink.url}`);
  if (tls) console.log(`ca ${await writeCaFile(tls, join(tmpdir(), `clockcheck-sink-${new URL(sink.url).port}`))}`);
  const signed = form.signature === null ? 'the form declares unsigned notifications' : secret ? `signatures checked with the secret in ${secretEnv}` : 'signatures not checked (no --secret-env)';
  console.log(`${signed}; ${options.profile === undefined ? 'the published notification form' : `the notification form of ${options.profile}`}`);

  const onSignal = () => stop('signal');
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const timer = maxTimeMs === null ? undefined : setTimeout(() => stop('time'), maxTimeMs);
  const reason = await stopped;
  clearTimeout(timer);
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  await sink.close();
  await logging;
  console.log(summary(sink.deliveries, sink.dropped, sink.refused));
  if (reason === 'time' && count !== null) {
    console.error(`sink: ${sink.lastId} of the ${count} deliveries awaited arrived within --max-time ${durationText(maxTimeMs ?? 0)}`);
    return 1;
  }
  return 0;
}

/** A redactor of the token and the secret when the token is set; without it the sink redacts its secret itself. */
function sinkRedactor(token: string | undefined, secret: string | null): { redactor?: Redactor } {
  return token ? { redactor: new Redactor(token, secret ? [secret] : []) } : {};
}
