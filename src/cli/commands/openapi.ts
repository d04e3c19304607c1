import { writeFile } from 'node:fs/promises';
import { stringify } from 'yaml';
import { UsageError } from '../../errors.ts';
import { openApiDocument } from '../../openapi/openapi-document.ts';
import { specIdentity } from '../../run/spec-document.ts';
import { toolVersion } from '../../version.ts';
import { parseCommandArgs } from '../args.ts';
import { loadProfile } from '../../profile/profile.ts';

const USAGE = `clockcheck openapi [--format json|yaml] [--out FILE] [--profile FILE]

Prints the API as OpenAPI 3.1, derived from clockcheck's model of the spec (never written by hand):
every operation of §4, request schemas from the field tables (types, required fields, formats as
patterns and enums, the conditional rules as if/then), the list parameters, the response schemas the
spec shows, the token in Authorization (§5.2), and each rule ID as x-rule-ids where it applies. What
JSON Schema cannot say (offsets that match their timezone, references to stored records) is listed
per body in x-clockcheck-rules-beyond-schema. The webhook notifications (§6) are under webhooks, in the
form the service publishes, or the one --profile declares (webhook.notification). For Schemathesis,
Prism, Postman and code generators.`;

export async function openapiCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs('openapi', argv, {
    format: { type: 'string', default: 'json' },
    out: { type: 'string' },
    profile: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (positionals.length > 0) throw new UsageError(`openapi: unexpected argument "${positionals[0]}"`);
  if (values.format !== 'json' && values.format !== 'yaml') throw new UsageError(`--format is json or yaml, not "${values.format}"`);
  const notification = values.profile === undefined ? undefined : (await loadProfile(values.profile)).webhook?.notification;
  const document = openApiDocument({ toolVersion: toolVersion(), spec: specIdentity(), ...(notification ? { notification } : {}) });
  const text = values.format === 'json' ? `${JSON.stringify(document, null, 2)}\n` : stringify(document, { lineWidth: 0, aliasDuplicateObjects: false });
  if (values.out) {
    await writeFile(values.out, text, 'utf8');
    console.error(`openapi: written ${values.out}`);
  } else process.stdout.write(text);
  return 0;
}
