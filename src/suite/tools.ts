// Tool expectations as written in suite files (docs/personas.md, "The checks"; docs/traces.md,
// "Fixtures"): `{tool, input?, match?}`, one schema for a script's `expect.toolCalled` entries and a
// fixture's `assert: {toolCalled: ...}`, so both are checked and read the same way.

import * as z from 'zod';
import type { JsonValue, ToolExpectation } from '../types.js';
import { isJsonValue } from './config/shared.js';

export const jsonValue = z.custom<JsonValue>(isJsonValue, { error: 'must be JSON data (strings, numbers, true/false, null, lists and mappings)' });
export const matchMode = z.enum(['exact', 'subset']);
export const toolExpectationSchema = z.strictObject({ tool: z.string().min(1), input: jsonValue.optional(), match: matchMode.optional() });

/** Key order {tool, input, match}; `match` defaults to subset; no input: any call of the tool. */
export function toExpectation(t: z.infer<typeof toolExpectationSchema>): ToolExpectation {
  const match = t.match ?? 'subset';
  return t.input === undefined ? { tool: t.tool, match } : { tool: t.tool, input: t.input, match };
}
