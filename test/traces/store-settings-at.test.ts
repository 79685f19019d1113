// A trace store's errors name the setting to check (docs/traces.md, "Query: a trace store"), and,
// as every configuration problem does, config.yml's line beside it: "check traces.query.apiKey
// (.agent-replay/config.yml:4)". The suite loaded from real files; the store a real server on 127.0.0.1.
import { afterEach, describe, expect, it } from 'vitest';
import { settingsAt, startSpanSource, TraceStoreError } from '../../src/traces/index.js';
import { startAgentServer, type AgentServer } from '../support/agent-server.js';
import { C, F, OK_FIXTURE, load } from '../suite/helpers.js';

const servers: AgentServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

describe("the store's errors name config.yml's line", () => {
  it('the loaded config keeps where each query key is written', async () => {
    const r = await load({
      [`${F}/a.yml`]: OK_FIXTURE,
      [C]: 'agent: { url: http://127.0.0.1:9/chat }\ntraces:\n  query:\n    kind: tempo\n    url: http://127.0.0.1:3200\n    apiKey: "${TEMPO_KEY}"\n',
    }, { env: { TEMPO_KEY: 'k-123' } });
    expect(r.errors).toEqual([]);
    expect(r.suite?.config.traces?.query?.at).toEqual({ kind: `${C}:4`, url: `${C}:5`, apiKey: `${C}:6` });
  });

  it("a refused key's message names its line, once, and a key not written is left as it is", async () => {
    const at = { url: `${C}:5`, apiKey: `${C}:6` };
    expect(settingsAt('tempo answered HTTP 401: check traces.query.apiKey; check traces.query.apiKey', at)).toBe(`tempo answered HTTP 401: check traces.query.apiKey (${C}:6); check traces.query.apiKey`);
    expect(settingsAt('is traces.query.kind right for this store?', at)).toBe('is traces.query.kind right for this store?');

    const store = await startAgentServer(() => ({ status: 401, json: { message: 'unauthorized' } }));
    servers.push(store);
    const started = await startSpanSource({ receive: null, query: { kind: 'jaeger', url: store.url, apiKey: null, at }, waitMs: 1000 });
    try {
      const failed = await started.source.collect('4bf92f3577b34da6a3ce929d0e0e4736', '00f067aa0ba902b7').then(() => null, (e: unknown) => e);
      expect(failed).toBeInstanceOf(TraceStoreError);
      expect((failed as Error).message).toContain(`check traces.query.apiKey (${C}:6)`);
    } finally {
      await started.source.close();
    }
  });
});
