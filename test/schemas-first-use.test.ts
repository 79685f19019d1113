// The zod schemas that only some files or commands read are built on first use (onFirstUse,
// src/patterns.ts), not when their module loads: a start builds none of them (docs/performance.md,
// "2026-12-07 (small hours): the session's figures"). Every schema zod builds is seen through its
// global post-processor hook, with the frame that asked for it.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const MODULES = ['suite/baselines.ts', 'suite/personas.ts', 'suite/fixtures.ts', 'suite/item-file.ts', 'agent/usage.ts', 'report/metadata.ts', 'cli/commit.ts'];

type ZodConfig = { postProcessor?: (schema: unknown) => void };
const zodConfig = (): ZodConfig => ((globalThis as { __zod_globalConfig?: ZodConfig }).__zod_globalConfig ??= {});

/** The modules of MODULES that built a schema since the last reset. */
let builtBy: Set<string>;
let stackLimit: number;

beforeEach(() => {
  builtBy = new Set();
  stackLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 100;
  zodConfig().postProcessor = () => {
    // The frame that asked zod for it: the first one outside zod and this file.
    const frame = (new Error().stack ?? '').split('\n').slice(1).find((f) => !/node_modules[\\/]zod|schemas-first-use/.test(f)) ?? '';
    for (const m of MODULES) if (frame.includes(`/src/${m}`)) builtBy.add(m);
  };
});

afterEach(() => {
  delete zodConfig().postProcessor;
  Error.stackTraceLimit = stackLimit;
});

describe('schemas built on first use', () => {
  it('loading the modules builds none of their schemas; the first use builds them, once', async () => {
    // Test files share a worker's module graph (vitest.config.ts, isolate: false): an earlier file
    // may have loaded these modules and built their schemas already. A graph of this test's own.
    vi.resetModules();
    const baselines = await import('../src/suite/baselines.js');
    const fixtures = await import('../src/suite/fixtures.js');
    const usage = await import('../src/agent/usage.js');
    await import('../src/suite/personas.js');
    await import('../src/report/metadata.js');
    await import('../src/cli/commit.js');
    expect([...builtBy]).toEqual([]);

    const first = baselines.baselineSchemas();
    expect(first.baselineSchema.safeParse({ label: 'x', reply: 'r', route: null, verdict: 'pass', acceptedAt: 't', commit: null }).success).toBe(true);
    expect(fixtures.fixtureSchemas().fixtureSchema.safeParse({ label: 'x', message: 'm', repeat: { count: 2 } }).success).toBe(true);
    expect(usage.readUsage({ prompt_tokens: 1, completion_tokens: 2 })).toEqual({ kind: 'usage', usage: { inputTokens: 1, outputTokens: 2 } });
    expect([...builtBy].sort()).toEqual(['agent/usage.ts', 'suite/baselines.ts', 'suite/fixtures.ts']);

    builtBy.clear();
    expect(baselines.baselineSchemas()).toBe(first);
    baselines.baselineSchemas();
    fixtures.fixtureSchemas();
    usage.readUsage({ prompt_tokens: 3, completion_tokens: 4 });
    expect([...builtBy]).toEqual([]);
  });
});
