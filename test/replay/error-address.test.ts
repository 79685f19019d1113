// A connection that failed is said in the clients' words, and where it was tried is kept as data
// (docs/results-json.md, "errorAddress"): a fixture's and a persona script's records keep the address
// of a closed port on 127.0.0.1, results.json reads it back, and the cause reads it, not the message.

import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpAgentClient } from '../../src/agent/index.js';
import { createRegexPool } from '../../src/assertions/index.js';
import { defaultConfig } from '../../src/config.js';
import { groupCauses } from '../../src/evaluate/causes.js';
import { parseRecord, serializeRecord } from '../../src/record/index.js';
import { NO_BASELINES, replay } from '../../src/replay/index.js';
import type { AgentClient, Fixture, PersonaScript, RegexEvaluator } from '../../src/types.js';
import { replayOptions } from '../support/replay-options.js';

const FIXTURE: Fixture = { label: 'refund', message: 'refund?', persona: null, assertion: { kind: 'contains', value: 'refund' }, file: '.agent-replay/fixtures/f.yml', line: 1 };
const SCRIPT: PersonaScript = {
  label: 'script',
  file: '.agent-replay/personas/p.yml',
  line: 1,
  persona: null,
  opening: 'hello',
  followUps: [],
  maxTurns: 20,
  threshold: 0.7,
  mocks: [],
  expect: { conversations: [], terminal: null, toolCalled: [], toolNotCalled: [], criteria: [] },
};

let port: number;
let agent: AgentClient;
let regex: RegexEvaluator;

beforeAll(async () => {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  port = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  agent = createHttpAgentClient({ ...defaultConfig().agent, url: `http://127.0.0.1:${port}/chat`, start: null, retries: 0 });
  regex = createRegexPool({ size: 1, timeoutMs: 1000 });
});
afterAll(async () => {
  await agent.close();
  await regex.close();
});

describe('a connection refused, in the records', () => {
  it("says it in the clients' words and keeps the address as data, for a fixture and a persona script", async () => {
    const record = await replay({ fixtures: [FIXTURE], personas: [SCRIPT], baselines: NO_BASELINES }, { agent, regex, judge: null }, replayOptions({ concurrency: 1 }));
    const [fixture] = record.fixtures;
    const [script] = record.personas;
    const words = `connection refused at 127.0.0.1:${port} (ECONNREFUSED); nothing listens there: check agent-url (agent.url) and that the agent is running`;
    expect(fixture).toMatchObject({ errored: true, errorKind: 'network', error: `message turn: could not reach the agent after 1 attempt: ${words}`, errorAddress: `127.0.0.1:${port}` });
    expect(script).toMatchObject({ errored: true, errorKind: 'network', errorAddress: `127.0.0.1:${port}` });
    expect(script?.error).toContain(words);
    for (const item of [fixture, script]) expect(item?.error).not.toContain('connect ECONNREFUSED');
    // results.json keeps it, and reads it back.
    const read = parseRecord(serializeRecord(record), 'results.json');
    expect([read.fixtures[0]?.errorAddress, read.personas[0]?.errorAddress]).toEqual([`127.0.0.1:${port}`, `127.0.0.1:${port}`]);
    // The cause reads the address from the record: at localhost, the family that refused is named.
    const causes = groupCauses([...read.fixtures, ...read.personas], `http://localhost:${port}/chat`);
    expect(causes.map((c) => [c.what, c.labels])).toEqual([[`connection refused at http://localhost:${port}/chat (tried at 127.0.0.1)`, ['refund', 'script']]]);
  });
});
