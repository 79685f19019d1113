// Shared set-up of the repeat tests that run the real CLI: a baseline accepted from ten passing
// attempts (docs/statistics.md, "A baseline's attempts") and a loopback agent that greets, then
// answers each message turn as the test says.

import type { Baseline } from '../../src/types.js';
import type { AgentReply } from '../support/agent-server.js';
import { serve } from '../cli/helpers.js';

/** A baseline of `label` replying "yes", accepted from 10 attempts that all passed. */
export function tenOfTen(label: string): Baseline {
  return { label, reply: 'yes', route: null, verdict: 'pass', attempts: { passed: 10, total: 10 }, acceptedAt: '2026-11-01T10:00:00.000Z', commit: 'a'.repeat(40) };
}

/** A message turn as the agent gets it: the message and the attempt's number (the session's `-<n>` suffix). */
export interface Turn {
  message: string;
  attempt: number;
}

/** A native agent that answers the welcome turn, then each message turn with `answer(turn)`: a reply, or a whole answer (an HTTP status). */
export function attemptAgent(answer: (turn: Turn) => string | AgentReply) {
  return serve((req) => {
    const body = req.json as { session: string; message: string; start?: boolean };
    if (body.start === true) return { json: { reply: 'Welcome!', route: null } };
    const a = answer({ message: body.message, attempt: Number(/-(\d+)$/.exec(body.session)?.[1]) });
    return typeof a === 'string' ? { json: { reply: a, route: null } } : a;
  });
}
