import { jsonText } from '../../contract/json-text.ts';
import { writeFile } from 'node:fs/promises';
import { yamlPackage } from '../../input/yaml-package.ts';
import { openApiDocument } from '../../openapi/openapi-document.ts';
import { openApiReading } from '../../openapi/openapi-reading.ts';
import { specIdentity } from '../../contract/spec-document.ts';
import { toolVersion } from '../../version.ts';
import { defineCommand } from '../../input/option-table.ts';
import { readCommandLine } from '../command-line.ts';
import { loadProfile } from '../../profile/profile.ts';

export const OPENAPI_COMMAND = defineCommand({
  name: 'openapi',
  description: `Prints the API as OpenAPI 3.1, derived from clockcheck's model of the spec (never written by hand):
every operation of §4, request schemas from the field tables (types, required fields, formats as
patterns and enums, the conditional rules as if/then) with an example request a server accepts, the
list parameters, every answer as a literal status code (no 2XX/4XX ranges) with the response schemas
the spec shows, the token in Authorization (§5.2), and each rule ID as x-rule-ids where it applies.
What JSON Schema cannot say (offsets that match their timezone, references to stored records) is
listed per body in x-clockcheck-rules-beyond-schema. Without --profile the document is the spec's
weakest reading: every code the spec admits (200 and 201 for a creation, 400 and 422 for a
validation failure, 401 and 403 for a refused token). --profile writes it to that server's readings:
its status_codes, where its records are (id_pointer, list_items) and how their fields are spelled
(record_fields), user_email_format, user_edit_required, page_size_over_max, its fixtures in the
examples, and its webhook notifications' form. For Prism, Portman/Newman, Schemathesis, Postman and
code generators.`,
  options: {
    format: { kind: 'choice', values: ['json', 'yaml'], default: 'json', help: 'the document as JSON or YAML' },
    out: { kind: 'string', placeholder: 'FILE', defaultHelp: 'stdout', help: 'write the document to FILE' },
    profile: { kind: 'string', placeholder: 'FILE', help: "a target profile: the document is written to its readings (status codes, records, examples, notifications)" },
    'get-body': {
      kind: 'choice',
      values: ['document', 'omit'],
      default: 'document',
      help: "GET /breaks' optional JSON body (§4.4 ids): document it (no example), or omit it for tools that fill a body from the schema and proxies that refuse a GET with a body (Prism's proxy)",
    },
    target: {
      kind: 'string',
      placeholder: 'https://host[:port]',
      defaultHelp: "the profile's target, else the spec's {base_url} variable",
      help: "the server the document names: the spec's {base_url}; the profile's api_prefix (default /api/public) is added",
    },
  },
});

export async function openapiCommand(argv: string[]): Promise<number> {
  const input = readCommandLine(OPENAPI_COMMAND, argv);
  if (!input) return 0;
  const { options } = input;
  const profile = options.profile === undefined ? undefined : await loadProfile(options.profile);
  const reading = openApiReading(profile, options.target);
  const document = openApiDocument({ toolVersion: toolVersion(), spec: specIdentity(), reading, getBody: options['get-body'] });
  if (profile !== undefined && profile.fixtures.timesheet === undefined) {
    console.error("openapi: the profile has no fixtures.timesheet, so the POST /breaks example names a timesheet the target may not hold and may be refused; `clockcheck init --probe-writes` creates one, or set fixtures.timesheet to a closed timesheet of the target");
  }
  const text = options.format === 'json' ? `${jsonText(document, 2)}\n` : yamlPackage().stringify(document, { lineWidth: 0, aliasDuplicateObjects: false });
  if (options.out) {
    await writeFile(options.out, text, 'utf8');
    console.error(`openapi: written ${options.out}`);
  } else process.stdout.write(text);
  return 0;
}
