// Token usage an agent's response reports (docs/latency.md, "Usage"): read, never estimated. The
// shapes are the vendors' own, from their SDK types: OpenAI chat `CompletionUsage`
// (`prompt_tokens`, `completion_tokens`), OpenAI Responses `ResponseUsage` and Anthropic `Usage`
// (`input_tokens`, `output_tokens`; Anthropic's cache reads and writes are input too), LangChain's
// `UsageMetadata` on AI messages (`usage_metadata`), and the native / Vercel AI SDK
// `LanguageModelUsage` (`inputTokens`, `outputTokens`). AI SDK 7 types each count `number |
// undefined` (JSON drops an undefined one): the count given is counted, a missing one adds 0, and
// none is derived (not from `totalTokens`) (docs/latency.md, "Usage"). Pure: a malformed value is
// reported to the caller, which warns once and records no usage; it never errors a turn.

import * as z from 'zod';
import type { TokenUsage } from '../types.js';
import { plusUsage } from '../evaluate/usage.js';
import { describeFound } from './template.js';
import { keysText } from './tool-calls.js';
import { onFirstUse } from '../patterns.js';

/** What a response says about its tokens: nothing, a usage, or a value of no known shape. */
export type UsageRead = { kind: 'none' } | { kind: 'usage'; usage: TokenUsage } | { kind: 'malformed'; found: string };

export const NO_USAGE: UsageRead = { kind: 'none' };

/**
 * The most tokens one count may say (docs/latency.md, "Usage"): no model spends a billion on a turn.
 * A larger count is malformed, so that the sums over a run stay whole numbers JavaScript holds
 * exactly, and the results file that keeps them can be read back.
 */
export const MAX_REPORTED_TOKENS = 1_000_000_000;

/** The known shapes, built on first use: a reply without usage never reads them (onFirstUse). */
const usageShapes = onFirstUse(() => {
  const count = z.number().int().nonnegative().max(MAX_REPORTED_TOKENS);
  const cached = count.nullable().optional();
  /** A count the sender left out: absent (an AI SDK `undefined`), or null. */
  const given = count.nullish();
  const native = z.object({ inputTokens: given, outputTokens: given });
  /** AI SDK 7's `LanguageModelUsage` always has its details objects, even with every count undefined. */
  const sdkDetails = z.union([z.object({ inputTokenDetails: z.record(z.string(), z.unknown()) }), z.object({ outputTokenDetails: z.record(z.string(), z.unknown()) })]);
  const chat = z.object({ prompt_tokens: count, completion_tokens: count });
  const inOut = z.object({ input_tokens: count, output_tokens: count, cache_creation_input_tokens: cached, cache_read_input_tokens: cached });
  return { native, sdkDetails, chat, inOut };
});

/**
 * A `usage` value in any of the known shapes. Null or absent: none reported; anything else that is
 * not one of them (a string, a negative count, a vendor shape's missing half): malformed.
 */
export function readUsage(value: unknown): UsageRead {
  if (value === undefined || value === null) return NO_USAGE;
  const { native, sdkDetails, chat, inOut } = usageShapes();
  const n = native.safeParse(value);
  if (n.success) {
    const { inputTokens, outputTokens } = n.data;
    if (inputTokens != null || outputTokens != null) return { kind: 'usage', usage: { inputTokens: inputTokens ?? 0, outputTokens: outputTokens ?? 0 } };
    // The AI SDK's usage of a provider that gave no count: nothing reported (a total alone is not split).
    if (sdkDetails.safeParse(value).success) return NO_USAGE;
  }
  const c = chat.safeParse(value);
  if (c.success) return { kind: 'usage', usage: { inputTokens: c.data.prompt_tokens, outputTokens: c.data.completion_tokens } };
  const io = inOut.safeParse(value);
  if (io.success) {
    const d = io.data;
    const input = d.input_tokens + (d.cache_creation_input_tokens ?? 0) + (d.cache_read_input_tokens ?? 0);
    return { kind: 'usage', usage: { inputTokens: input, outputTokens: d.output_tokens } };
  }
  return { kind: 'malformed', found: describeUsage(value) };
}

/** The top-level `usage` of a JSON body (OpenAI chat and Responses, Anthropic, native, any API that follows one of them). */
export function bodyUsage(json: unknown): UsageRead {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return NO_USAGE;
  return readUsage((json as Record<string, unknown>).usage);
}

/** Sums reads: malformed wins (the caller warns), else the usages reported, else none. */
export function sumUsage(reads: readonly UsageRead[]): UsageRead {
  let sum: TokenUsage | null = null;
  for (const r of reads) {
    if (r.kind === 'malformed') return r;
    if (r.kind === 'usage') sum = plusUsage(sum, r.usage);
  }
  return sum === null ? NO_USAGE : { kind: 'usage', usage: sum };
}

/** What a malformed usage looked like, in a few words (its keys, never its whole value). */
function describeUsage(value: unknown): string {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const huge = Object.values(value).some((v) => typeof v === 'number' && v > MAX_REPORTED_TOKENS);
    // The agent's keys, each bounded, and how many more (keysText).
    return Object.keys(value).length === 0 ? 'an empty object' : `an object with ${keysText(value as Record<string, unknown>)}${huge ? ' (a count above a billion)' : ''}`;
  }
  return describeFound(value);
}
