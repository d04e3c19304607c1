import { appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../../errors.ts';
import { generateTlsIdentity, writeCaFile } from '../../reference/certificate.ts';
import { startSink, type Delivery } from '../../webhooks/sink.ts';
import { integerOption, parseCommandArgs } from '../args.ts';

const USAGE = `clockcheck sink [--port 0] [--host 127.0.0.1] [--secret-env NAME] [--status 200] [--log FILE]
                [--max-body 65536] [--tls]

Receives a target's webhook notifications, for debugging them (as \`stripe listen\` does for Stripe):
prints a line per delivery, checks its signature (x-webhook-signature, the hex HMAC-SHA256 of
x-webhook-timestamp + body) with the secret in the environment variable --secret-env names (never on
the command line), checks its payload against the published shape, answers --status (another status
exercises the sender's retries), and appends each delivery to --log as one JSON line. Anything that
is not a POST of JSON within --max-body bytes is refused with a 4xx. --tls serves HTTPS with a fresh
certificate (its CA file is printed). Point the subscription at the printed URL (through a tunnel
if the target is not on this machine). Stops on Ctrl-C.`;

function describeDelivery(d: Delivery): string {
  const data = d.payload.ok ? d.payload.value.payload.data : null;
  const what = data ? `${data.operation} id=${String(data.id)}` : `payload not as published: ${d.payload.ok ? '' : d.payload.why}`;
  const signature = typeof d.signature === 'string' ? `signature ${d.signature}` : `signature FAILED: ${d.signature.failed}`;
  return `#${d.id} ${d.receivedAt} POST ${d.path} ${what}; ${signature}; answered ${d.status}`;
}

export async function sinkCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs('sink', argv, {
    port: { type: 'string' },
    host: { type: 'string', default: '127.0.0.1' },
    'secret-env': { type: 'string' },
    status: { type: 'string' },
    log: { type: 'string' },
    'max-body': { type: 'string' },
    tls: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (positionals.length > 0) throw new UsageError(`sink: unexpected argument "${positionals[0]}"`);
  const secretEnv = values['secret-env'];
  const secret = secretEnv === undefined ? null : process.env[secretEnv];
  if (secretEnv !== undefined && !secret) throw new UsageError(`--secret-env ${secretEnv}: that environment variable is empty or not set`);
  const tls = values.tls ? await generateTlsIdentity() : undefined;
  let logging = Promise.resolve();
  const sink = await startSink({
    host: values.host,
    port: integerOption('port', values.port, 0, 0, 65535),
    secret: secret ?? null,
    status: integerOption('status', values.status, 200, 200, 599),
    maxBodyBytes: integerOption('max-body', values['max-body'], 64 * 1024, 1, 16 * 1024 * 1024),
    ...(tls ? { tls } : {}),
    onDelivery: (delivery) => {
      console.log(describeDelivery(delivery));
      const log = values.log;
      if (log) logging = logging.then(() => appendFile(log, `${JSON.stringify(delivery)}\n`, 'utf8')).catch((error: Error) => console.error(`sink: cannot write ${log}: ${error.message}`));
    },
  });
  console.log(`listening ${sink.url}`);
  if (tls) console.log(`ca ${await writeCaFile(tls, join(tmpdir(), `clockcheck-sink-${new URL(sink.url).port}`))}`);
  console.log(secret ? `signatures checked with the secret in ${secretEnv}` : 'signatures not checked (no --secret-env)');
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await sink.close();
  await logging;
  const refused = Object.entries(sink.refused).map(([why, n]) => `${n} ${why}`);
  console.log(`${sink.deliveries.length + sink.dropped} deliveries${refused.length > 0 ? `; refused: ${refused.join(', ')}` : ''}`);
  return 0;
}
