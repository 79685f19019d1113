// Tool expectations as written in suite files (docs/personas.md, "The checks"; docs/traces.md,
// "Fixtures"): `{tool, input?, match?}`, one schema for a script's `expect.toolCalled` entries and a
// fixture's `assert: {toolCalled: ...}`, so both are checked and read the same way.

import * as z from 'zod';
import { onFirstUse } from '../patterns.js';
import type { JsonValue, ToolExpectation } from '../types.js';
import { isJsonValue } from './config/shared.js';

/** Built on first use, by the first fixture or persona schema (src/patterns.ts's onFirstUse: a start builds none). */
export const toolSchemas = onFirstUse(() => {
  const jsonValue = z.custom<JsonValue>(isJsonValue, { error: 'must be JSON data (strings, numbers, true/false, null, lists and mappings)' });
  const matchMode = z.enum(['exact', 'subset']);
  const toolExpectationSchema = z.strictObject({ tool: z.string().min(1), input: jsonValue.optional(), match: matchMode.optional() });
  return { jsonValue, matchMode, toolExpectationSchema };
});

/** Key order {tool, input, match}; `match` defaults to subset; no input: any call of the tool. */
export function toExpectation(t: z.infer<ReturnType<typeof toolSchemas>['toolExpectationSchema']>): ToolExpectation {
  const match = t.match ?? 'subset';
  return t.input === undefined ? { tool: t.tool, match } : { tool: t.tool, input: t.input, match };
}
