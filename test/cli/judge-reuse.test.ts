// Judge reuse (docs/fixtures.md, "Judge reuse"), end to end through the CLI: `run` against a real
// loopback agent and a real loopback judge, `accept` writing the judge result into the baseline
// files, and reruns whose judge requests are counted by the judge server itself (what it received
// is the truth).

import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { serializeBaseline } from '../../src/suite/index.js';
import { JUDGE_PROMPT_VERSION } from '../../src/judge/prompt.js';
import type { Baseline, FixtureRecord, RunRecord } from '../../src/types.js';
import { startServer, type Received, type TestServer } from '../judge/server.js';
import { agentConfig, byLabel, cli, makeProject, readResults, scriptedAgent, serve, useCleanup } from './helpers.js';

useCleanup();

const judges: TestServer[] = [];
afterEach(async () => {
  while (judges.length > 0) await judges.pop()?.close();
});

const C1 = '1'.repeat(40);
const C2 = '2'.repeat(40);
const NOW = '2026-12-01T12:00:00.000Z'; // the helpers' io.now

/** The reply text the judge was asked about (OpenAI chat format, the reply between its reply-<hash> tags). */
function judgedReply(r: Received): string {
  const body = r.body as { messages: { role: string; content: string }[] };
  const user = body.messages.find((m) => m.role === 'user')?.content ?? '';
  return /<(reply-[0-9a-f-]+)>\n([\s\S]*)\n<\/\1>/.exec(user)?.[2] ?? /<(transcript-[0-9a-f-]+)>\n([\s\S]*)\n<\/\1>/.exec(user)?.[2] ?? '';
}

/** A loopback OpenAI-compatible judge: a rude reply scores 0.2, any other 0.9. */
async function startJudge(): Promise<TestServer> {
  const server = await startServer([
    (res, req) => {
      const score = judgedReply(req).includes('rude') ? 0.2 : 0.9;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: JSON.stringify({ score, rationale: `judged ${judgedReply(req)}` }) } }] }));
    },
  ]);
  judges.push(server);
  return server;
}

const FIXTURES = [
  'fixtures:',
  '  - { label: polite, message: hi, assert: { judge: "The reply is polite", threshold: 0.5 } }',
  '  - { label: refund, message: refund, assert: { judge: "Explains the refund policy", threshold: 0.5 } }',
  '  - { label: plain, message: plain, assert: { contains: "plain" } }',
  '',
].join('\n');

// Only judge calls for criteria reach this judge: meaning stops at the facts (docs/meaning.md), which ask no model.
// No "slower" from the machine's load: an item 300 ms slower than its baseline is rewritten by accept
// (docs/latency.md), which made "1 unchanged" read "accepted" on a loaded machine.
function config(agentUrl: string, judgeUrl: string, model = 'm1', extra = ''): string {
  return `${agentConfig(agentUrl, extra)}judge: { provider: openai, baseUrl: "${judgeUrl}", model: ${model}, apiKey: k, retries: 0, backoffMs: 0 }\ncost: { capUsd: 5 }\nmeaning: { check: facts }\nlatency: { slowerBy: 0.5, minDeltaMs: 600000 }\n`;
}

const baselinePath = (cwd: string, label: string): string => join(cwd, '.agent-replay', 'baselines', `${label}.json`);
const configPath = (cwd: string): string => join(cwd, '.agent-replay', 'config.yml');

async function run(cwd: string, out: string, commit: string, env: Record<string, string> = {}): Promise<RunRecord> {
  const r = await cli(['run', '--out', out, '--commit', commit, '--fail-on', 'none'], cwd, env);
  expect(r.stderr).not.toContain('error');
  expect(r.code).toBe(0);
  return readResults(join(cwd, out));
}

function item(record: RunRecord, label: string): FixtureRecord {
  const f = byLabel(record).get(label);
  if (f === undefined) throw new Error(`no ${label} in the record`);
  return f;
}

interface Setup {
  cwd: string;
  judge: TestServer;
  answers: Record<string, string>;
  agentUrl: string;
}

/** Runs once (2 judge calls), accepts with the real CLI; the agent's answers can be changed afterwards. */
async function acceptedProject(): Promise<Setup> {
  const answers: Record<string, string> = { hi: 'Hello, nice to meet you.', refund: 'Refunds within 30 days.', plain: 'plain text' };
  const agent = await serve((req) => scriptedAgent(answers)(req));
  const judge = await startJudge();
  const cwd = await makeProject({ config: config(agent.url, judge.url), fixtures: { 'f.yml': FIXTURES } });
  const first = await run(cwd, 'r1.json', C1);
  expect(judge.received.length).toBe(2);
  expect(first.spend).toMatchObject({ judgeCalls: 2, judgeReused: 0 });
  const accepted = await cli(['accept', '--results', 'r1.json'], cwd);
  expect(accepted.code).toBe(0);
  expect(accepted.stdout).toContain('3 accepted, 0 refused, 0 unchanged');
  return { cwd, judge, answers, agentUrl: agent.url };
}

describe('judge reuse', () => {
  it('accept keeps the judge result and its fingerprint in the baseline file; an unjudged fixture gets none', async () => {
    const { cwd, judge } = await acceptedProject();
    const polite = JSON.parse(await readFile(baselinePath(cwd, 'polite'), 'utf8')) as Baseline;
    expect(polite.judge).toEqual({
      score: 0.9,
      rationale: 'judged Hello, nice to meet you.',
      fingerprint: { model: 'openai/m1', endpoint: judge.url, promptVersion: JUDGE_PROMPT_VERSION, criteria: [{ criterion: 'The reply is polite', threshold: 0.5 }] },
    });
    // Stable key order: the judge block sits between the verdict and the acceptance facts.
    expect(await readFile(baselinePath(cwd, 'polite'), 'utf8')).toBe(serializeBaseline(polite));
    expect(Object.keys(polite)).toEqual(['label', 'message', 'reply', 'route', 'verdict', 'judge', 'latencyMs', 'acceptedAt', 'commit']);
    const plain = JSON.parse(await readFile(baselinePath(cwd, 'plain'), 'utf8')) as Baseline;
    expect(plain.judge).toBeUndefined();
    expect(Object.keys(plain)).toEqual(['label', 'message', 'reply', 'route', 'verdict', 'latencyMs', 'acceptedAt', 'commit']);
  });

  it('a rerun with no reply changed makes no judge request: the scores are reused and the record says from where', async () => {
    const { cwd, judge } = await acceptedProject();
    const second = await run(cwd, 'r2.json', C2);
    expect(judge.received.length).toBe(2); // still only the first run's two calls
    expect(second.spend).toMatchObject({ judgeCalls: 0, judgeReused: 2 });
    const polite = item(second, 'polite');
    expect(polite.verdict).toBe('pass');
    expect(polite.score).toBe(0.9);
    expect(polite.rationale).toBe('judged Hello, nice to meet you.');
    expect(polite.judgeReused).toEqual({ commit: C1, acceptedAt: NOW });
    expect(polite.detail).toBe('score 0.90 >= threshold 0.50, reused from 1111111: judged Hello, nice to meet you.');
    expect(polite.drift?.verdict).toBe('still_passing');
    expect(item(second, 'plain').judgeReused).toBeUndefined();

    // The terminal's facts line shows calls made and reused beside the estimate.
    const report = await cli(['report', '--results', 'r2.json', '--markdown', 'c.md'], cwd);
    expect(report.stdout).toContain('0 judge calls made, 2 judge results reused');
    expect(await readFile(join(cwd, 'c.md'), 'utf8')).toContain('0 judge calls made, 2 judge results reused');

    // Accepting the rerun changes nothing: the same replies, routes, verdicts and judge.
    const again = await cli(['accept', '--results', 'r2.json'], cwd);
    expect(again.stdout).toContain('0 accepted, 0 refused, 3 unchanged');
  });

  it('a changed reply is judged afresh, only that one', async () => {
    const { cwd, judge, answers } = await acceptedProject();
    answers.hi = 'Go away, rude question.';
    const second = await run(cwd, 'r2.json', C2);
    expect(judge.received.map(judgedReply).slice(2)).toEqual(['Go away, rude question.']);
    expect(second.spend).toMatchObject({ judgeCalls: 1, judgeReused: 1 });
    const polite = item(second, 'polite');
    expect(polite.judgeReused).toBeUndefined();
    expect(polite.verdict).toBe('fail');
    expect(polite.drift?.verdict).toBe('newly_failing');
    expect(item(second, 'refund').judgeReused).toEqual({ commit: C1, acceptedAt: NOW });
  });

  it('a changed threshold or criterion is judged afresh (the fingerprint differs)', async () => {
    const { cwd, judge } = await acceptedProject();
    await writeFile(join(cwd, '.agent-replay', 'fixtures', 'f.yml'), FIXTURES.replace('threshold: 0.5 } }\n  - { label: refund', 'threshold: 0.6 } }\n  - { label: refund').replace('Explains the refund policy', 'Explains the refund policy briefly'));
    const second = await run(cwd, 'r2.json', C2);
    expect(judge.received.length).toBe(4);
    expect(second.spend).toMatchObject({ judgeCalls: 2, judgeReused: 0 });
    expect(item(second, 'polite').judgeReused).toBeUndefined();
    expect(item(second, 'polite').threshold).toBe(0.6);

    // Accepting it rewrites the judge result under the new fingerprint (reply unchanged), so the
    // next run reuses again instead of paying for a call that could never be reused.
    const accepted = await cli(['accept', '--results', 'r2.json'], cwd);
    expect(accepted.stdout).toContain('2 accepted, 0 refused, 1 unchanged');
    const polite = JSON.parse(await readFile(baselinePath(cwd, 'polite'), 'utf8')) as Baseline;
    expect(polite.judge?.fingerprint.criteria).toEqual([{ criterion: 'The reply is polite', threshold: 0.6 }]);
    const third = await run(cwd, 'r3.json', C2);
    expect(judge.received.length).toBe(4);
    expect(third.spend).toMatchObject({ judgeCalls: 0, judgeReused: 2 });
  });

  it('a changed judge model is judged afresh', async () => {
    const { cwd, judge, agentUrl } = await acceptedProject();
    await writeFile(configPath(cwd), config(agentUrl, judge.url, 'm2'));
    const second = await run(cwd, 'r2.json', C2);
    expect(judge.received.length).toBe(4);
    expect(second.spend).toMatchObject({ judgeCalls: 2, judgeReused: 0 });
    expect(item(second, 'refund').judgeFingerprint?.model).toBe('openai/m2');
  });

  it('a baseline judged under another judge prompt version is judged afresh', async () => {
    const { cwd, judge } = await acceptedProject();
    const stored = JSON.parse(await readFile(baselinePath(cwd, 'polite'), 'utf8')) as Baseline;
    const older: Baseline = { ...stored, judge: { ...stored.judge!, fingerprint: { ...stored.judge!.fingerprint, promptVersion: `${JUDGE_PROMPT_VERSION}-old` } } };
    await writeFile(baselinePath(cwd, 'polite'), serializeBaseline(older));
    const second = await run(cwd, 'r2.json', C2);
    expect(judge.received.map(judgedReply).slice(2)).toEqual(['Hello, nice to meet you.']);
    expect(second.spend).toMatchObject({ judgeCalls: 1, judgeReused: 1 });
    expect(item(second, 'polite').judgeReused).toBeUndefined();
  });

  it('a baseline accepted before judge results were kept is judged, and accepting the same reply again leaves the file alone', async () => {
    const { cwd, judge } = await acceptedProject();
    const stored = JSON.parse(await readFile(baselinePath(cwd, 'polite'), 'utf8')) as Baseline;
    const { judge: _dropped, ...older } = stored;
    const olderText = serializeBaseline(older);
    await writeFile(baselinePath(cwd, 'polite'), olderText);
    await run(cwd, 'r2.json', C2);
    expect(judge.received.length).toBe(3);
    const again = await cli(['accept', '--results', 'r2.json'], cwd);
    expect(again.stdout).toContain('0 accepted, 0 refused, 3 unchanged');
    expect(await readFile(baselinePath(cwd, 'polite'), 'utf8')).toBe(olderText);
  });

  it('a reply carrying a secret is always judged afresh, even when its redacted form equals the baseline', async () => {
    const answers: Record<string, string> = { hi: 'Your token is s3cret-token-1', refund: 'Refunds within 30 days.', plain: 'plain' };
    const agent = await serve((req) => scriptedAgent(answers)(req));
    const judge = await startJudge();
    const env = { AGENT_TOKEN: 's3cret-token-1' };
    const cwd = await makeProject({
      config: config(agent.url, judge.url, 'm1', '  headers: { Authorization: "Bearer ${AGENT_TOKEN}" }\n'),
      fixtures: { 'f.yml': FIXTURES },
    });
    const first = await run(cwd, 'r1.json', C1, env);
    expect(item(first, 'polite').reply).toBe('Your token is ***');
    expect((await cli(['accept', '--results', 'r1.json'], cwd, env)).code).toBe(0);
    // Another secret value, the same redacted text: never reused.
    answers.hi = 'Your token is s3cret-token-2';
    const second = await run(cwd, 'r2.json', C2, { AGENT_TOKEN: 's3cret-token-2' });
    expect(item(second, 'polite').reply).toBe('Your token is ***');
    expect(item(second, 'polite').judgeReused).toBeUndefined();
    expect(second.spend).toMatchObject({ judgeCalls: 1, judgeReused: 1 });
    expect(judge.received.length).toBe(3);
    // The judge is a third party: it was asked about the redacted reply, never the secret.
    expect(judge.received.map(judgedReply).filter((r) => r.startsWith('Your token'))).toEqual(['Your token is ***', 'Your token is ***']);
    expect(JSON.stringify(judge.received.map((r) => r.body))).not.toMatch(/s3cret-token/);
  });
});

describe('judge reuse in an assertion list', () => {
  it('accepts a fail whose judge passed beside a check that failed; the next run reuses the score and the suite loads', async () => {
    const answers: Record<string, string> = { refund: 'Happy to help, please ask the store.' };
    const agent = await serve((req) => scriptedAgent(answers)(req));
    const judge = await startJudge();
    const fixtures = 'fixtures:\n  - { label: refund, message: refund, assert: [{ contains: "30 days" }, { judge: "Is it polite?", threshold: 0.5 }] }\n';
    const cwd = await makeProject({ config: config(agent.url, judge.url), fixtures: { 'f.yml': fixtures } });
    const first = item(await run(cwd, 'r1.json', C1), 'refund');
    expect([first.verdict, first.score]).toEqual(['fail', 0.9]);
    const accepted = await cli(['accept', '--results', 'r1.json'], cwd);
    // Refused before as "its record contradicts itself ... was the results file edited?".
    expect(accepted.stdout).toContain('1 accepted, 0 refused, 0 unchanged');
    const stored = JSON.parse(await readFile(baselinePath(cwd, 'refund'), 'utf8')) as Baseline;
    expect([stored.verdict, stored.judge?.score]).toEqual(['fail', 0.9]);
    expect(judge.received.length).toBe(1);
    const second = item(await run(cwd, 'r2.json', C2), 'refund');
    expect(judge.received.length).toBe(1); // the kept score stood for the same reply: no call
    expect([second.verdict, second.judgeReused]).toEqual(['fail', { commit: C1, acceptedAt: NOW }]);
    expect((await cli(['accept', '--results', 'r2.json'], cwd)).stdout).toContain('0 accepted, 0 refused, 1 unchanged');
  });
});

describe('a hostile baseline file', () => {
  const fingerprint = { model: 'openai/m1', promptVersion: JUDGE_PROMPT_VERSION, criteria: [{ criterion: 'The reply is polite', threshold: 0.5 }] };
  const forged = (judge: unknown): string =>
    `${JSON.stringify({ label: 'polite', reply: 'Hello', route: null, verdict: 'pass', judge, acceptedAt: NOW, commit: C1 }, null, 2)}\n`;

  async function validate(text: string): Promise<{ code: number; stderr: string }> {
    const cwd = await makeProject({ config: config('http://127.0.0.1:9', 'http://127.0.0.1:9'), fixtures: { 'f.yml': FIXTURES } });
    await mkdir(join(cwd, '.agent-replay', 'baselines'), { recursive: true });
    await writeFile(join(cwd, '.agent-replay', 'baselines', 'polite.json'), text);
    const r = await cli(['validate'], cwd);
    return { code: r.code, stderr: r.stderr };
  }

  it('is refused with file and line when the score is out of range', async () => {
    const r = await validate(forged({ score: 7, rationale: 'great', fingerprint }));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('.agent-replay/baselines/polite.json:7');
    expect(r.stderr).toContain('judge.score must be at most 1, found the number 7');
  });

  it('is refused when the judge block is malformed', async () => {
    const r = await validate(forged({ score: 0.9, rationale: 'great', fingerprint: { model: 'openai/m1', criteria: [] } }));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/baselines\/polite\.json:\d+/);
    expect(r.stderr).toContain('judge.fingerprint');
    const two = await validate(forged({ score: 0.9, rationale: 'great', fingerprint: { ...fingerprint, criteria: [fingerprint.criteria[0], fingerprint.criteria[0]] } }));
    expect(two.stderr).toMatch(/baselines\/polite\.json:\d+:\d+: baseline: judge\.fingerprint\.criteria lists 2 criteria; a fixture is judged against exactly one/);
    const text = await validate(forged('0.9'));
    expect(text.stderr).toContain('.agent-replay/baselines/polite.json:6');
    expect(text.stderr).toContain('judge must be a mapping');
  });

  it('is refused when its score contradicts the accepted verdict', async () => {
    const r = await validate(forged({ score: 0.1, rationale: 'poor', fingerprint }));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('.agent-replay/baselines/polite.json:7');
    expect(r.stderr).toContain('judge.score 0.1 < threshold 0.5 contradicts the accepted verdict "pass"');
  });
});

describe('judge reuse for persona scripts', () => {
  const script = (criteria: string[], threshold = 0.5): string =>
    `personas:\n  - label: refund-talk\n    opening: hi\n    followUps: [ refund ]\n    threshold: ${threshold}\n    expect: { criteria: [ ${criteria.map((c) => JSON.stringify(c)).join(', ')} ] }\n`;
  const criterionOf = (r: Received): string => /^Criterion:\n(.*)$/m.exec((r.body as { messages: { content: string }[] }).messages[1]?.content ?? '')?.[1] ?? '';

  async function acceptedScript(): Promise<Setup> {
    const answers: Record<string, string> = { hi: 'Hello, nice to meet you.', refund: 'Refunds within 30 days.' };
    const agent = await serve((req) => scriptedAgent(answers)(req));
    const judge = await startJudge();
    const cwd = await makeProject({ config: config(agent.url, judge.url), personas: { 'p.yml': script(['Stayed polite', 'Explained refunds']) } });
    const first = await run(cwd, 'r1.json', C1);
    expect(judge.received.length).toBe(2);
    expect(first.personas[0]?.verdict).toBe('pass');
    expect((await cli(['accept', '--results', 'r1.json'], cwd)).stdout).toContain('1 accepted, 0 refused, 0 unchanged');
    return { cwd, judge, answers, agentUrl: agent.url };
  }

  it('accepts a fail whose criteria passed beside a reply check that failed, and the next run reuses them', async () => {
    const agent = await serve((req) => scriptedAgent({ hi: 'Hello, nice to meet you.', refund: 'Please ask the store.' })(req));
    const judge = await startJudge();
    const script = 'personas:\n  - label: refund-talk\n    opening: hi\n    followUps: [ refund ]\n    threshold: 0.5\n    expect: { reply: [ { contains: "30 days" } ], criteria: [ "Stayed polite" ] }\n';
    const cwd = await makeProject({ config: config(agent.url, judge.url), personas: { 'p.yml': script } });
    expect((await run(cwd, 'r1.json', C1)).personas[0]?.verdict).toBe('fail');
    expect((await cli(['accept', '--results', 'r1.json'], cwd)).stdout).toContain('1 accepted, 0 refused, 0 unchanged');
    const stored = JSON.parse(await readFile(baselinePath(cwd, 'refund-talk'), 'utf8')) as { verdict: string; judge: { criteria: { score: number }[] } };
    expect([stored.verdict, stored.judge.criteria.map((c) => c.score)]).toEqual(['fail', [0.9]]);
    const second = await run(cwd, 'r2.json', C2);
    expect(judge.received.length).toBe(1);
    expect(second.personas[0]?.verdict).toBe('fail');
  });

  it('accept keeps each criterion\'s result and the transcript hash; an identical transcript reuses them with no call', async () => {
    const { cwd, judge } = await acceptedScript();
    const stored = JSON.parse(await readFile(baselinePath(cwd, 'refund-talk'), 'utf8')) as { judge: Record<string, unknown> };
    expect(stored.judge).toMatchObject({
      model: 'openai/m1',
      promptVersion: JUDGE_PROMPT_VERSION,
      criteria: [
        { criterion: 'Stayed polite', threshold: 0.5, score: 0.9 },
        { criterion: 'Explained refunds', threshold: 0.5, score: 0.9 },
      ],
    });
    expect(stored.judge.transcriptHash).toMatch(/^[0-9a-f]{16}$/);

    const second = await run(cwd, 'r2.json', C2);
    expect(judge.received.length).toBe(2);
    expect(second.spend).toMatchObject({ judgeCalls: 0, judgeReused: 2 });
    const checks = second.personas[0]!.checks.filter((c) => c.kind === 'criterion');
    expect(checks.map((c) => c.kind === 'criterion' && c.reused)).toEqual([{ commit: C1, acceptedAt: NOW }, { commit: C1, acceptedAt: NOW }]);
    expect(checks[0]?.detail).toMatch(/^score 0\.90 >= threshold 0\.50, reused from 1111111: /);
    expect(second.personas[0]?.verdict).toBe('pass');
    expect((await cli(['accept', '--results', 'r2.json'], cwd)).stdout).toContain('0 accepted, 0 refused, 1 unchanged');
  });

  it('one changed reply anywhere in the transcript has every criterion judged afresh', async () => {
    const { cwd, judge, answers } = await acceptedScript();
    answers.refund = 'Refunds within 31 days.';
    const second = await run(cwd, 'r2.json', C2);
    expect(judge.received.slice(2).map(criterionOf)).toEqual(['Stayed polite', 'Explained refunds']);
    expect(second.spend).toMatchObject({ judgeCalls: 2, judgeReused: 0 });
  });

  it('a new criterion is judged alone; a changed threshold or model has every criterion judged', async () => {
    const { cwd, judge, agentUrl } = await acceptedScript();
    const scriptPath = join(cwd, '.agent-replay', 'personas', 'p.yml');
    await writeFile(scriptPath, script(['Stayed polite', 'Explained refunds', 'Said goodbye']));
    const added = await run(cwd, 'r2.json', C2);
    expect(judge.received.slice(2).map(criterionOf)).toEqual(['Said goodbye']);
    expect(added.spend).toMatchObject({ judgeCalls: 1, judgeReused: 2 });

    await writeFile(scriptPath, script(['Stayed polite', 'Explained refunds'], 0.6));
    const threshold = await run(cwd, 'r3.json', C2);
    expect(threshold.spend).toMatchObject({ judgeCalls: 2, judgeReused: 0 });

    await writeFile(scriptPath, script(['Stayed polite', 'Explained refunds']));
    await writeFile(configPath(cwd), config(agentUrl, judge.url, 'm2'));
    const model = await run(cwd, 'r4.json', C2);
    expect(model.spend).toMatchObject({ judgeCalls: 2, judgeReused: 0 });
    expect(judge.received.length).toBe(2 + 1 + 2 + 2);
  });

  it('a transcript that carried a secret is always judged afresh', async () => {
    const answers: Record<string, string> = { hi: 'Your token is s3cret-token-1', refund: 'Refunds within 30 days.' };
    const agent = await serve((req) => scriptedAgent(answers)(req));
    const judge = await startJudge();
    const cwd = await makeProject({
      config: config(agent.url, judge.url, 'm1', '  headers: { Authorization: "Bearer ${AGENT_TOKEN}" }\n'),
      personas: { 'p.yml': script(['Stayed polite']) },
    });
    const env = { AGENT_TOKEN: 's3cret-token-1' };
    await run(cwd, 'r1.json', C1, env);
    expect((await cli(['accept', '--results', 'r1.json'], cwd, env)).code).toBe(0);
    const second = await run(cwd, 'r2.json', C2, env);
    expect(second.personas[0]?.turns.map((t) => t.reply)).toContain('Your token is ***');
    expect(second.spend).toMatchObject({ judgeCalls: 1, judgeReused: 0 });
    expect(judge.received.length).toBe(2);
  });

  it('a hostile persona judge block (score out of range) is refused with file and line', async () => {
    const { cwd } = await acceptedScript();
    const text = await readFile(baselinePath(cwd, 'refund-talk'), 'utf8');
    await writeFile(baselinePath(cwd, 'refund-talk'), text.replace('"score": 0.9,', '"score": 9,'));
    const r = await cli(['validate'], cwd);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/\.agent-replay\/baselines\/refund-talk\.json:\d+:\d+: persona baseline: judge\.criteria\[0\]\.score must be at most 1, found the number 9/);

    // A score under its threshold kept with a passing verdict: edited by hand.
    await writeFile(baselinePath(cwd, 'refund-talk'), text.replace('"score": 0.9,', '"score": 0.1,'));
    const contradiction = await cli(['validate'], cwd);
    expect(contradiction.code).toBe(2);
    expect(contradiction.stderr).toMatch(/refund-talk\.json:\d+:\d+: persona baseline: judge\.criteria\[0\]\.score 0\.1 < threshold 0\.5 contradicts the accepted verdict "pass"/);
  });
});

describe('judge reuse with repeat (never across attempts of one run)', () => {
  it('each attempt of a repeated item checks the stored baseline on its own: identical attempts each reuse it, a changed one is judged', async () => {
    const { cwd, judge, answers } = await acceptedProject();
    await writeFile(configPath(cwd), `${await readFile(configPath(cwd), 'utf8')}repeat: { count: 3 }\n`);
    const unchanged = await run(cwd, 'r2.json', C2);
    expect(judge.received.length).toBe(2); // the first run's calls only: 2 items x 3 attempts reused
    expect(unchanged.spend).toMatchObject({ judgeCalls: 0, judgeReused: 6 });
    expect(item(unchanged, 'polite').attempts?.map((a) => a.judgeReused?.commit)).toEqual([C1, C1, C1]);

    // The agent now answers "refund" differently on every request: no attempt may reuse, and no
    // attempt's fresh score is reused by a later attempt of the same run.
    let n = 0;
    const base = answers.refund;
    Object.defineProperty(answers, 'refund', { get: () => `${base} (answer ${++n})`, enumerable: true });
    const changed = await run(cwd, 'r3.json', C2);
    expect(judge.received.length - 2).toBe(3);
    expect(changed.spend).toMatchObject({ judgeCalls: 3, judgeReused: 3 });
    expect(item(changed, 'refund').attempts?.map((a) => a.judgeReused ?? null)).toEqual([null, null, null]);
  });
});
