import { z } from 'zod';
import { isJsonObject } from './validate.ts';
import type { Violation } from '../violation.ts';

/**
 * A zod schema for a request payload whose issues carry the broken rule's ID in `params.rule`.
 * The checks themselves live in `violations`, so the schema and the validator cannot drift apart.
 */
export function payloadSchema<T extends object>(
  name: string,
  violations: (body: Readonly<Record<string, unknown>>) => readonly Violation[],
) {
  return z
    .custom<T>(isJsonObject, { message: `${name} payload must be a JSON object` })
    .superRefine((body, ctx) => {
      for (const v of violations(body as Readonly<Record<string, unknown>>)) {
        ctx.addIssue({ code: 'custom', message: v.message, path: v.field ? [v.field] : [], params: { rule: v.ruleId } });
      }
    });
}
