// Records keyed by names the agent chose (a tool's, in a time split: docs/traces.md, "Time").

import * as z from 'zod';

/**
 * A JSON object of names to values that keeps every own key: zod's z.record leaves out a key named
 * `__proto__`, so a tool of that name would lose its time when a baseline or results file is read
 * back (docs/traces.md, "Time"). That key's value is checked like the others', its issues at its path.
 */
export function namedRecord<T extends z.ZodType>(value: T): z.ZodType<Record<string, z.output<T>>> {
  const record = z.record(z.string(), value);
  return z.unknown().transform((input, ctx) => {
    const parsed = record.safeParse(input);
    const own = parsed.success && Object.hasOwn(input as object, '__proto__') ? value.safeParse((input as Record<string, unknown>)['__proto__']) : null;
    const issues = [...(parsed.success ? [] : parsed.error.issues), ...(own === null || own.success ? [] : own.error.issues.map((i) => ({ ...i, path: ['__proto__', ...i.path] })))];
    if (!parsed.success || (own !== null && !own.success)) {
      for (const issue of issues) ctx.addIssue({ ...issue } as Parameters<typeof ctx.addIssue>[0]);
      return z.NEVER;
    }
    if (own === null) return parsed.data;
    // In the input's key order, `__proto__` as an own key (Object.fromEntries defines, never sets a prototype).
    return Object.fromEntries(Object.keys(input as object).map((k) => [k, k === '__proto__' ? own.data : parsed.data[k]])) as Record<string, z.output<T>>;
  });
}
