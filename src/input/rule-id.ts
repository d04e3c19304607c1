import { z } from 'zod';
import { isRuleId, RULES, type RuleId } from '../contract/rules.ts';
import { didYouMean } from '../did-you-mean.ts';

const RULE_IDS: readonly string[] = RULES.map((r) => r.id);

/**
 * A rule ID of the catalog in a suite or profile; a typo gets "did you mean". Its JSON Schema (for
 * editors, src/input/input-json-schema.ts) lists the catalog's IDs, once, as `$defs/rule_id`.
 */
export const ruleIdSchema = z
  .string()
  .superRefine((id, ctx) => {
    if (isRuleId(id)) return;
    const hint = didYouMean(id, RULE_IDS);
    ctx.addIssue({ code: 'custom', message: `"${id}" is not a rule ID of the catalog (${hint ? `did you mean "${hint}"?` : '`clockcheck rules` lists them'})` });
  })
  .transform((id) => id as RuleId)
  .meta({ id: 'rule_id', description: 'A rule ID of the catalog (`clockcheck rules` lists them with their statements).', enum: [...RULE_IDS] });
