// The loopback agent and the fake GitHub a test file of the Action replays against: the agent
// started once for the file, the fake afresh for each test.

import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { startFakeGitHub, type FakeGitHub } from './github-server.js';
import { startAgentServer, type AgentHandler, type AgentServer } from './agent-server.js';

/** The servers of the running test: read inside a test (or a hook after useServers' own), not at the file's top level. */
export interface Servers {
  readonly agent: AgentServer;
  readonly gh: FakeGitHub;
}

/**
 * One loopback agent for the file and a fresh fake GitHub for each test, seeded by `seed`; `use`
 * hands both to the test file, and so does the object returned. Both are closed when done; after
 * each test, the fake's answers must have conformed to GitHub's response schemas.
 */
export function useServers(handler: AgentHandler, seed: (gh: FakeGitHub) => void = () => undefined, use: (agent: AgentServer, gh: FakeGitHub) => void = () => undefined): Servers {
  let agent: AgentServer | null = null;
  let gh: FakeGitHub | null = null;
  beforeAll(async () => {
    agent = await startAgentServer(handler);
  });
  afterAll(async () => {
    await gh?.close();
    await agent?.close();
  });
  // Every answer the fake gave the Action conforms to GitHub's OpenAPI description (github-server.ts, responseViolations).
  afterEach(() => {
    expect(gh?.responseViolations ?? []).toEqual([]);
  });
  beforeEach(async () => {
    await gh?.close();
    gh = await startFakeGitHub();
    seed(gh);
    use(started(agent), gh);
  });
  return {
    get agent() {
      return started(agent);
    },
    get gh() {
      return started(gh);
    },
  };
}

function started<T>(server: T | null): T {
  if (server === null) throw new Error('useServers: its servers start before the first test; read them inside a test');
  return server;
}
