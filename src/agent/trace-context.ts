// The W3C trace context of each agent request (docs/traces.md, "traceparent"): a fresh trace id
// per turn, and a fresh parent span id per attempt of it (a retried attempt stays in the turn's
// trace under a parent of its own, so that its spans can be told from the answered attempt's:
// docs/traces.md, "Retried requests"), version 00, sampled (flags 01). A `traceparent` set in
// agent.headers is the user's choice: it is sent unchanged instead, on every attempt, and the
// trace id it carries is the one recorded (null when it is not a traceparent we can read).
// `tracestate` is never made here: the user's, if any, goes out as it is.

import { randomFillSync } from 'node:crypto';
import type { SentTrace } from '../types.js';

export interface TraceContext {
  /** The ids that went out, or null (a user's header that is not a valid traceparent). */
  trace: SentTrace | null;
  /** The `traceparent` header to add, or null when the user's own is sent. */
  header: string | null;
}

export interface TraceContextMaker {
  /** The context of the next turn (its first attempt). */
  next(): TraceContext;
  /** The context of a later attempt of the turn `first` began: the same trace id, a fresh parent span id (the user's own header: `first` again). */
  again(first: TraceContext): TraceContext;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(?:-.*)?$/;

/** `headers` are agent.headers as configured; `randomBytes` is injected so tests are deterministic. */
export function traceContext(headers: Record<string, string>, randomBytes: (size: number) => Uint8Array = pooledRandomBytes): TraceContextMaker {
  const own = Object.entries(headers).find(([name]) => name.toLowerCase() === 'traceparent')?.[1];
  if (own !== undefined) {
    const fixed: TraceContext = { trace: parseTraceparent(own), header: null };
    return { next: () => fixed, again: () => fixed };
  }
  const sent = (traceId: string): TraceContext => {
    const trace = { traceId, spanId: nonZeroHex(randomBytes, 8) };
    return { trace, header: `00-${trace.traceId}-${trace.spanId}-01` };
  };
  return {
    next: () => sent(nonZeroHex(randomBytes, 16)),
    again: (first) => (first.trace === null ? first : sent(first.trace.traceId)),
  };
}

/** The trace id and parent span id of a `traceparent` value, or null when it is not a valid one (W3C Trace Context, level 1). */
export function parseTraceparent(value: string): SentTrace | null {
  const m = TRACEPARENT.exec(value.trim());
  if (m === null) return null;
  const [, version, traceId, spanId] = m as unknown as [string, string, string, string];
  // Version ff is invalid; version 00 has exactly four fields; all-zero ids are invalid.
  if (version === 'ff' || (version === '00' && value.trim().length !== 55)) return null;
  if (/^0+$/.test(traceId) || /^0+$/.test(spanId)) return null;
  return { traceId, spanId };
}

/** `size` random bytes as lower-case hex, never all zeros (an invalid id): drawn again, or its last byte set. */
function nonZeroHex(randomBytes: (size: number) => Uint8Array, size: number): string {
  for (let tries = 0; tries < 4; tries++) {
    const bytes = randomBytes(size);
    if (bytes.some((b) => b !== 0)) return hex(bytes.subarray(0, size));
  }
  return `${'00'.repeat(size - 1)}01`;
}

function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

// Random bytes drawn 4 KiB at a time (as uuid's v4 does): one getrandom per 170 turns instead of two
// per turn, which was about a tenth of a 5,000-fixture run's CPU (docs/performance.md).
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let used = 0;

/** `size` fresh random bytes; the view is valid until the next call. */
function pooledRandomBytes(size: number): Uint8Array {
  if (used + size > pool.length) {
    pool = randomFillSync(Buffer.allocUnsafe(POOL_BYTES));
    used = 0;
  }
  used += size;
  return pool.subarray(used - size, used);
}
