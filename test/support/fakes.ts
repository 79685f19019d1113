// Parts of fake AgentClients and Judges for tests that exercise only fixtures: a session or a
// transcript call answers with a failure that says the fake has none (it is never a pass).
import type { AgentSession, JudgeResult } from '../../src/types.js';

/** `AgentClient.session` of a fake agent that only converses: every turn errors. */
export function noSessions(): AgentSession {
  const turn = { kind: 'errored' as const, errorKind: 'internal' as const, error: 'this fake agent has no sessions' };
  return { welcome: async () => turn, send: async () => turn };
}

/** `Judge.scoreTranscript` of a fake judge that only scores replies. */
export async function noTranscripts(): Promise<JudgeResult> {
  return { ok: false, reason: 'this fake judge does not score transcripts' };
}
