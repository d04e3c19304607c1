import { appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../../errors.ts';
import { generateTlsIdentity, writeCaFile } from '../../tls/certificate.ts';
import { PUBLISHED_FORM } from '../../contract/webhook-notification.ts';
import { loadProfile } from '../../profile/profile.ts';
import { listenAddress } from '../../webhooks/run-sink.ts';
import { startSink, type Delivery } from '../../webhooks/sink.ts';
import { parseDuration } from '../../duration.ts';
import { integerOption, parseCommandArgs } from '../args.ts';

const USAGE = `clockcheck sink [--port 0] [--host 127.0.0.1] [--secret-env NAME] [--profile FILE] [--status 200]
                [--log FILE] [--max-body 65536] [--tls] [--count N] [--max-time 10m]

Receives a target's webhook notifications, for debugging them (as \`stripe listen\` does for Stripe):
prints a line per delivery, checks its signature (by default x-webhook-signature, the hex HMAC-SHA256
of x-webhook-timestamp + body) with the secret in the environment variable --secret-env names (never
on the command line), checks its payload against the form, answers --status (another status
exercises the sender's retries), and appends each delivery to --log as one JSON line. Anything that
is not a POST of JSON within --max-body bytes is refused with a 4xx. --tls serves HTTPS with a fresh
certificate (its CA file is printed). Point the subscription at the printed URL (through a tunnel
if the target is not on this machine).

--profile reads the notification form (webhook.notification), the secret's variable (secret_env),
signature_tolerance and the listen address (sink.listen) from a run's profile, so the sink reads
notifications as \`clockcheck run\` judges them; the options above override it.

Stops on Ctrl-C, after --count deliveries, or at --max-time (exit 1 when --count deliveries did
not arrive by then).`;

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
  const { values, positionals } = parseCommandArgs('sink', argv, {
    port: { type: 'string' },
    host: { type: 'string' },
    'secret-env': { type: 'string' },
    profile: { type: 'string' },
    status: { type: 'string' },
    log: { type: 'string' },
    'max-body': { type: 'string' },
    tls: { type: 'boolean', default: false },
    count: { type: 'string' },
    'max-time': { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (positionals.length > 0) throw new UsageError(`sink: unexpected argument "${positionals[0]}"`);
  const webhook = values.profile === undefined ? undefined : (await loadProfile(values.profile)).webhook;
  if (values.profile !== undefined && !webhook) throw new UsageError(`--profile ${values.profile}: the profile has no webhook section to read the notification form from`);
  const listen = webhook?.sink ? listenAddress(webhook.sink.listen) : { host: '127.0.0.1', port: 0 };
  const secretEnv = values['secret-env'] ?? webhook?.secret_env;
  const secret = secretEnv === undefined ? null : process.env[secretEnv];
  if (secretEnv !== undefined && !secret) throw new UsageError(`${values['secret-env'] === undefined ? 'the profile\'s webhook.secret_env' : '--secret-env'} ${secretEnv}: that environment variable is empty or not set`);
  const count = values.count === undefined ? null : integerOption('count', values.count, 1, 1, 1_000_000);
  const maxTimeMs = values['max-time'] === undefined ? null : parseDuration(values['max-time']);
  if (maxTimeMs !== null && !(maxTimeMs > 0)) throw new UsageError(`--max-time takes a duration such as 90s or 10m, not "${values['max-time']}"`);
  const form = webhook?.notification ?? PUBLISHED_FORM;
  const tls = values.tls ? await generateTlsIdentity() : undefined;

  let logging = Promise.resolve();
  let stop: (reason: 'signal' | 'count' | 'time') => void = () => undefined;
  const stopped = new Promise<'signal' | 'count' | 'time'>((resolve) => (stop = resolve));
  const sink = await startSink({
    host: values.host ?? listen.host,
    port: integerOption('port', values.port, listen.port, 0, 65535),
    secret: secret ?? null,
    form,
    status: integerOption('status', values.status, 200, 200, 599),
    maxBodyBytes: integerOption('max-body', values['max-body'], 64 * 1024, 1, 16 * 1024 * 1024),
    ...(webhook ? { toleranceSeconds: webhook.signature_tolerance / 1000 } : {}),
    ...(tls ? { tls } : {}),
    onDelivery: (delivery) => {
      console.log(describeDelivery(delivery));
      const log = values.log;
      if (log) logging = logging.then(() => appendFile(log, `${JSON.stringify(delivery)}\n`, 'utf8')).catch((error: Error) => console.error(`sink: cannot write ${log}: ${error.message}`));
      if (count !== null && delivery.id >= count) stop('count');
    },
  });
  console.log(`listening ${sink.url}`);
  if (tls) console.log(`ca ${await writeCaFile(tls, join(tmpdir(), `clockcheck-sink-${new URL(sink.url).port}`))}`);
  const signed = form.signature === null ? 'the form declares unsigned notifications' : secret ? `signatures checked with the secret in ${secretEnv}` : 'signatures not checked (no --secret-env)';
  console.log(`${signed}; ${values.profile === undefined ? 'the published notification form' : `the notification form of ${values.profile}`}`);

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
    console.error(`sink: ${sink.lastId} of the ${count} deliveries awaited arrived within --max-time ${values['max-time']}`);
    return 1;
  }
  return 0;
}
