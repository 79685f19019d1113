// An agent client made as a run makes it: config.yml's `agent:` section (`url:` pointing at a real
// server on 127.0.0.1 that answers with `handler`, then `agentYaml`) loaded from a real suite, no
// retries, and a clock that never sleeps (or the `deps` given). The servers and clients go at `closeAll()`, which the test
// file calls after each test (a helper registers no vitest hook itself: test/lint/helper-hooks.test.ts).
import { expect } from 'vitest';
import { createHttpAgentClient } from '../../src/agent/index.js';
import type { AgentClientDeps } from '../../src/agent/http-client.js';
import type { AgentClient } from '../../src/types.js';
import { startAgentServer, type AgentHandler } from '../support/agent-server.js';
import { C, F, OK_FIXTURE, load } from '../suite/helpers.js';

export function configClients(): { clientFor: (agentYaml: string, handler: AgentHandler, deps?: AgentClientDeps) => Promise<AgentClient>; closeAll: () => Promise<void> } {
  const cleanups: (() => Promise<void>)[] = [];
  return {
    async clientFor(agentYaml, handler, deps = {}) {
      const server = await startAgentServer(handler);
      cleanups.push(() => server.close());
      const loaded = await load({ [F + '/ok.yml']: OK_FIXTURE, [C]: `agent:\n  url: ${server.url}\n${agentYaml}` });
      expect(loaded.errors).toEqual([]);
      const client = createHttpAgentClient({ ...loaded.suite!.config.agent, retries: 0 }, { clock: { now: () => 0, sleep: async () => undefined }, ...deps });
      cleanups.push(() => client.close());
      return client;
    },
    async closeAll() {
      while (cleanups.length > 0) await cleanups.pop()?.();
    },
  };
}
