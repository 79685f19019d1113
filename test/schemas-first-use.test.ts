// The zod schemas that only some files or commands read are built on first use (onFirstUse,
// src/patterns.ts), not when their module loads: a start builds none of them (docs/performance.md,
// "2026-12-07 (small hours): the session's figures"). Every schema zod builds is seen through its
// global post-processor hook, with the frame that asked for it.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const SECTIONS = ['agent', 'judge', 'regex', 'cost', 'coverage', 'personas', 'simulator', 'latency', 'stats', 'traces', 'shared'].map((s) => `suite/config/${s}.ts`);
const MODULES = ['suite/baselines.ts', 'suite/personas.ts', 'suite/fixtures.ts', 'suite/item-file.ts', 'agent/usage.ts', 'report/metadata.ts', 'cli/commit.ts', 'suite/tools.ts', 'suite/repeat.ts', 'suite/meaning-config.ts', 'suite/config-file.ts', ...SECTIONS];

type ZodConfig = { postProcessor?: (schema: unknown) => void };
const zodConfig = (): ZodConfig => ((globalThis as { __zod_globalConfig?: ZodConfig }).__zod_globalConfig ??= {});

/** The modules of MODULES that built a schema since the last reset. */
let builtBy: Set<string>;
/** The kinds of schema each of them built (`suite/config/agent.ts: record`). */
let kinds: Set<string>;
let stackLimit: number;

beforeEach(() => {
  builtBy = new Set();
  kinds = new Set();
  stackLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 100;
  zodConfig().postProcessor = (schema) => {
    // The frame that asked zod for it: the first one outside zod and this file.
    const frame = (new Error().stack ?? '').split('\n').slice(1).find((f) => !/node_modules[\\/]zod|schemas-first-use/.test(f)) ?? '';
    const type = (schema as { _zod?: { def?: { type?: string } } })._zod?.def?.type;
    for (const m of MODULES) {
      if (!frame.includes(`/src/${m}`)) continue;
      builtBy.add(m);
      if (type !== undefined) kinds.add(`${m}: ${type}`);
    }
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
    // A fixture's schema holds a tool check's and a repeat's.
    expect([...builtBy].sort()).toEqual(['agent/usage.ts', 'suite/baselines.ts', 'suite/fixtures.ts', 'suite/repeat.ts', 'suite/tools.ts']);

    builtBy.clear();
    expect(baselines.baselineSchemas()).toBe(first);
    baselines.baselineSchemas();
    fixtures.fixtureSchemas();
    usage.readUsage({ prompt_tokens: 3, completion_tokens: 4 });
    expect([...builtBy]).toEqual([]);
  });

  it("config.yml builds the schemas of the sections it has, each on its first use; a key that is no section, every section's", async () => {
    const { resolveConfigFile } = await import('../src/suite/config-file.js');
    await import('../src/suite/meaning-config.js');
    await import('../src/suite/tools.js');
    expect([...builtBy]).toEqual([]);

    // No file: no section's schema (shared.ts's stands for every section absent).
    expect(resolveConfigFile(null, 'config.yml', null, {}).errors).toEqual([]);
    expect([...builtBy].sort()).toEqual(['suite/config-file.ts', 'suite/config/shared.ts']);

    builtBy.clear();
    const agentOnly = resolveConfigFile(null, 'config.yml', { agent: { url: 'http://127.0.0.1:9/chat', retries: 0 } }, {});
    expect(agentOnly.errors).toEqual([]);
    expect(agentOnly.config?.agent.url).toBe('http://127.0.0.1:9/chat');
    expect([...builtBy].sort()).toEqual(['suite/config-file.ts', 'suite/config/agent.ts', 'suite/config/shared.ts']);

    // traces' is built for the file that has it (with its ms() numbers); agent's, built already, is not built again.
    builtBy.clear();
    const withTraces = resolveConfigFile(null, 'config.yml', { agent: { url: 'http://127.0.0.1:9/chat', retries: 0 }, traces: { receive: { port: 0 }, waitMs: 10 } }, {});
    expect(withTraces.errors).toEqual([]);
    expect(withTraces.config?.traces?.waitMs).toBe(10);
    expect([...builtBy].sort()).toEqual(['suite/config-file.ts', 'suite/config/shared.ts', 'suite/config/traces.ts']);

    // A misspelt section is told the keys of the section it stands for (cost's), which is built for it.
    builtBy.clear();
    const { load, C, F, OK_FIXTURE } = await import('./suite/helpers.js');
    const costs = await load({ [C]: 'agent:\n  url: http://127.0.0.1:9/chat\ncosts: { cap: 1, judgeCallUsd: 0.01 }\n', [`${F}/a.yml`]: OK_FIXTURE });
    expect(costs.errors.map((e) => `${e.line}: ${e.message}\n  fix: ${e.fix}`)).toEqual([
      '3: unknown key "costs" at the top level; allowed keys: agent, judge, regex, cost, coverage, repeat, personas, simulator, latency, meaning, stats, traces\n  fix: did you mean "cost"? rename the key, and "cap" in it to "capUsd", so that line 3 reads\n    cost: { capUsd: 1, judgeCallUsd: 0.01 }',
    ]);
    expect(SECTIONS.filter((m) => m !== 'suite/config/agent.ts' && m !== 'suite/config/traces.ts' && m !== 'suite/config/shared.ts').every((m) => builtBy.has(m))).toBe(true);
  });

  it("agent: builds the schemas of the keys it has; a file that fails is told with every key's schema, as before", async () => {
    vi.resetModules();
    const { resolveConfigFile } = await import('../src/suite/config-file.js');
    const { load, C, F, OK_FIXTURE } = await import('./suite/helpers.js');
    const agentKinds = (): string[] => [...kinds].filter((k) => k.startsWith('suite/config/agent.ts: ')).map((k) => k.slice('suite/config/agent.ts: '.length)).sort();

    // docs/performance.md, "2026-12-07 (evening)": the bench's config, url, start: false and retries.
    const plain = resolveConfigFile(null, 'config.yml', { agent: { url: 'http://127.0.0.1:9/chat', start: false, retries: 0 } }, {});
    expect(plain.errors).toEqual([]);
    expect(plain.config?.agent.start).toBeNull();
    expect(plain.config?.agent.retries).toBe(0);
    // No headers' record, no preset's enum, no request body's JSON check, no response paths' strings.
    expect(agentKinds()).toEqual(['boolean', 'never', 'nullable', 'object', 'optional', 'string']);
    expect([...kinds].filter((k) => /: (record|enum|custom|union)$/.test(k))).toEqual([]);

    // A key written builds its schema and is read as before.
    kinds.clear();
    const headers = resolveConfigFile(null, 'config.yml', { agent: { url: 'http://127.0.0.1:9/chat', headers: { 'X-Version': 2 }, start: { body: { hi: '{{message}}' } } } }, {});
    expect(headers.errors).toEqual([]);
    expect(headers.config?.agent.headers['X-Version']).toBe('2');
    expect(headers.config?.agent.start?.body).toEqual({ hi: '{{message}}' });
    expect(agentKinds()).toEqual(expect.arrayContaining(['record', 'union']));

    // Errors, told as every key's schema tells them: a key of a key not written, a value of the wrong shape beside keys not written.
    const told = async (config: string): Promise<string[]> => (await load({ [C]: config, [`${F}/a.yml`]: OK_FIXTURE })).errors.map((e) => `${e.line}: ${e.message}\n  fix: ${e.fix}`);
    expect(await told('agent:\n  url: http://127.0.0.1:9/chat\n  timeout: 5\n')).toEqual([
      '3: unknown key "timeout" in agent; allowed keys: url, preset, model, maxTokens, assistantId, stream, headers, timeoutMs, concurrency, retries, backoffMs, waitForAgent, request, response, start\n  fix: did you mean "timeoutMs"? it is in milliseconds: rename the key and give the value in milliseconds (30 seconds is 30000)',
    ]);
    expect(await told('agent:\n  url: http://127.0.0.1:9/chat\n  start: off\n')).toEqual([
      '3: agent.start must be true, false, or a mapping with body and/or response, found the string "off"\n  fix: YAML 1.2 reads off as text, not as false: write start: false',
    ]);
  });
});
