import { writeFile } from 'node:fs/promises';
import { stringify } from 'yaml';
import { openApiDocument } from '../../openapi/openapi-document.ts';
import { specIdentity } from '../../run/spec-document.ts';
import { toolVersion } from '../../version.ts';
import { defineCommand } from '../../input/option-table.ts';
import { readCommandLine } from '../command-line.ts';
import { loadProfile } from '../../profile/profile.ts';

export const OPENAPI_COMMAND = defineCommand({
  name: 'openapi',
  description: `Prints the API as OpenAPI 3.1, derived from clockcheck's model of the spec (never written by hand):
every operation of §4, request schemas from the field tables (types, required fields, formats as
patterns and enums, the conditional rules as if/then), the list parameters, the response schemas the
spec shows, the token in Authorization (§5.2), and each rule ID as x-rule-ids where it applies. What
JSON Schema cannot say (offsets that match their timezone, references to stored records) is listed
per body in x-clockcheck-rules-beyond-schema. The webhook notifications (§6) are under webhooks, in the
form the service publishes, or the one --profile declares. For Schemathesis, Prism, Postman and code
generators.`,
  options: {
    format: { kind: 'choice', values: ['json', 'yaml'], default: 'json', help: 'the document as JSON or YAML' },
    out: { kind: 'string', placeholder: 'FILE', defaultHelp: 'stdout', help: 'write the document to FILE' },
    profile: { kind: 'string', placeholder: 'FILE', help: "a target profile: its webhook.notification is the notifications' form" },
  },
});

export async function openapiCommand(argv: string[]): Promise<number> {
  const input = readCommandLine(OPENAPI_COMMAND, argv);
  if (!input) return 0;
  const { options } = input;
  const notification = options.profile === undefined ? undefined : (await loadProfile(options.profile)).webhook?.notification;
  const document = openApiDocument({ toolVersion: toolVersion(), spec: specIdentity(), ...(notification ? { notification } : {}) });
  const text = options.format === 'json' ? `${JSON.stringify(document, null, 2)}\n` : stringify(document, { lineWidth: 0, aliasDuplicateObjects: false });
  if (options.out) {
    await writeFile(options.out, text, 'utf8');
    console.error(`openapi: written ${options.out}`);
  } else process.stdout.write(text);
  return 0;
}
