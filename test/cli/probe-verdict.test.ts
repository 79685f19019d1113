// `agent-replay probe`'s verdict line, at the function that makes it (src/cli/probe.ts,
// verdictLine): no CLI started. A judge's fix names the CLI's flag (--judge-url), as the run's
// terminal summary does (cliWords), never the Action's input.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { verdictLine } from '../../src/cli/probe.js';
import { judgeOutcome, PROBE_DETAIL } from '../../src/assertions/index.js';
import { createJudge } from '../../src/judge/index.js';
import type { Assertion, FixtureRecord } from '../../src/types.js';

const CRITERION = 'States the refund window.';
const judged: Assertion = { kind: 'judge', criterion: CRITERION, threshold: 0.7 };
const line = (over: Pick<FixtureRecord, 'assertion' | 'verdict' | 'detail'>): string => verdictLine(over);

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
});

describe("probe's verdict line", () => {
  it("says a judge's fix with the CLI's flag: a judge reached with https:// at a plain-HTTP port", async () => {
    const plain = createServer((_req, res) => res.end('{}'));
    servers.push(plain);
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    const { port } = plain.address() as AddressInfo;
    const judge = createJudge(
      { provider: 'openai', baseUrl: `https://127.0.0.1:${port}/v1`, model: 'm', apiKey: 'k', timeoutMs: 2000, retries: 0, backoffMs: 0, concurrency: 1, label: null },
      { clock: { now: () => 0, sleep: async () => undefined } },
    );
    try {
      const outcome = judgeOutcome(await judge.score(CRITERION, 'Refunds within 30 days.'), 0.7);
      expect(outcome.detail).toContain('in judge-base-url (judge.baseUrl)');
      expect(line({ assertion: judged, verdict: outcome.verdict, detail: outcome.detail })).toMatch(
        /^verdict not evaluated \(not a failure\): judge gave no usable answer: it answered without TLS \((?:ERR_SSL_WRONG_VERSION_NUMBER|ERR_SSL_PACKET_LENGTH_TOO_LONG)\): the server speaks plain HTTP at that address, not HTTPS: write the URL with http:\/\/ in --judge-url \(judge\.baseUrl\)$/,
      );
    } finally {
      await judge.close();
    }
  });

  it("names the CLI's flag in a cause's older words too (judge.baseUrl alone), and says the verdicts in probe's words", () => {
    expect(line({ assertion: judged, verdict: 'not_evaluated', detail: 'judge unreachable: connection refused at 127.0.0.1:9 (ECONNREFUSED); check judge.baseUrl' })).toBe(
      'verdict not evaluated (not a failure): judge unreachable: connection refused at 127.0.0.1:9 (ECONNREFUSED); check --judge-url (judge.baseUrl)',
    );
    expect(line({ assertion: judged, verdict: 'fail', detail: 'score 0.20 < threshold 0.70: No window given.' })).toBe('verdict fail: score 0.20 < threshold 0.70: No window given.');
    expect(line({ assertion: judged, verdict: 'pass', detail: 'score 0.90 >= threshold 0.70: It states it.' })).toBe('verdict pass: score 0.90 >= threshold 0.70: It states it.');
    // No assertion: nothing to check, the probe's own detail left out; another said in brackets.
    expect(line({ assertion: null, verdict: 'pass', detail: PROBE_DETAIL })).toBe('verdict pass (probe): nothing to check');
    expect(line({ assertion: null, verdict: 'pass', detail: 'the agent-url (agent.url) answered' })).toBe('verdict pass (probe): nothing to check (the --agent-url (agent.url) answered)');
  });

  it('keeps an agent\'s control characters out of the line (terminalLine), and paints the words it is given to', () => {
    expect(line({ assertion: judged, verdict: 'fail', detail: 'score 0.10 < threshold 0.70: \u001b[2Jcleared' })).not.toContain('\u001b');
    const painted = verdictLine({ assertion: judged, verdict: 'fail', detail: 'x' }, (c, t) => `<${c}>${t}</${c}>`);
    expect(painted).toBe('<bold>verdict</bold> <red>fail</red>: x');
  });
});
