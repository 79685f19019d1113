// The loopback servers a test starts (the agent, the judge, the simulator) and the temporary
// folders it makes, closed and removed after each test: the block test files wrote out for
// themselves (test/engine/meaning.test.ts, spend.test.ts, test/repeat/estimate.test.ts,
// test/simulator/simulated.test.ts and others). test/judge/server.ts's serversPerTest does the same
// for the judge's servers alone, starting them too.

import { rm } from 'node:fs/promises';
import { afterEach } from 'vitest';

/** A server a test started: anything with an awaitable close (AgentServer, TestServer, SimulatorServer). */
export interface Closable {
  close(): Promise<unknown>;
}

/**
 * Lists a test pushes its servers and temporary folders to: after each test the servers are closed,
 * the last started first, then the folders removed. Call once at the top of a test file: it
 * registers the afterEach there (a helper registers no hook at its own top level:
 * test/lint/helper-hooks.test.ts).
 */
export function closedAfterEach(): { servers: Closable[]; dirs: string[] } {
  const servers: Closable[] = [];
  const dirs: string[] = [];
  afterEach(async () => {
    while (servers.length > 0) await servers.pop()?.close();
    while (dirs.length > 0) await rm(dirs.pop() as string, { recursive: true, force: true });
  });
  return { servers, dirs };
}
