// `agent-replay calibrate` end to end: real temp suites, real loopback judges (OpenAI-compatible
// and Anthropic, test/judge/server.ts) whose received requests are the truth, and a loopback
// agent that must receive nothing.

import { cp, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { serializePersonaBaseline } from '../../src/suite/index.js';
import { docsUrl } from '../../src/version.js';
import { transcriptText } from '../../src/judge/prompt.js';
import { baselineTurns } from '../../src/calibrate/plan.js';
import { calibrationSchema, parseCalibration } from '../../src/calibrate/schema.js';
import { escapeInline } from '../../src/report/escape.js';
import { startDemoServer, type DemoServer } from '../../src/demo/server.js';
import type { Baseline, PersonaBaseline } from '../../src/types.js';
import { SINGLE_JUDGE_CONTRADICTION } from '../../src/calibrate/plan.js';
import type { AgentServer } from '../support/agent-server.js';
import { startServer, type Received, type TestServer } from '../judge/server.js';
import { agentConfig, baseline, cli, makeProject, serve, useCleanup } from './helpers.js';

useCleanup();

const judges: TestServer[] = [];
afterEach(async () => {
  while (judges.length > 0) await judges.pop()?.close();
});

/** What one judge request asks: the criterion and the reply or transcript (either provider's body). */
function asked(r: Received): { criterion: string; material: string; system: string } {
  const body = r.body as { system?: string; messages: { role: string; content: string }[] };
  const user = body.messages.find((m) => m.role === 'user')?.content ?? '';
  const system = body.system ?? body.messages.find((m) => m.role === 'system')?.content ?? '';
  const criterion = /^Criterion:\n([^\n]*)/.exec(user)?.[1] ?? '';
  const material = /<(reply-[0-9a-f-]+)>\n([\s\S]*)\n<\/\1>/.exec(user)?.[2] ?? /<(transcript-[0-9a-f-]+)>\n([\s\S]*)\n<\/\1>/.exec(user)?.[2] ?? '';
  return { criterion, material, system };
}

type Scorer = (q: { criterion: string; material: string }, nth: number) => number | string;

/** A loopback OpenAI-compatible judge; `nth` counts the calls per (criterion, material). A string answer is prose (no score). */
async function openaiJudge(scorer: Scorer): Promise<TestServer> {
  const seen = new Map<string, number>();
  const server = await startServer([
    (res, req) => {
      const q = asked(req);
      const key = `${q.criterion}\n${q.material}`;
      const nth = seen.get(key) ?? 0;
      seen.set(key, nth + 1);
      const s = scorer(q, nth);
      const content = typeof s === 'string' ? s : JSON.stringify({ rationale: `scored ${s}: ${q.material.slice(0, 20)}`, score: s });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content } }] }));
    },
  ]);
  judges.push(server);
  return server;
}

/** A loopback Anthropic judge answering with the forced verdict tool call. */
async function anthropicJudge(scorer: Scorer): Promise<TestServer> {
  const server = await startServer([
    (res, req) => {
      const q = asked(req);
      const s = scorer(q, 0);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ content: [{ type: 'tool_use', id: 't1', name: 'verdict', input: { rationale: `anthropic ${s}`, score: s } }] }));
    },
  ]);
  judges.push(server);
  return server;
}

/** Rude replies score 0.2, others 0.9. */
const politeness: Scorer = (q) => (q.material.includes('rude') ? 0.2 : 0.9);

function config(agentUrl: string, judgeUrl: string, opts: { provider?: 'openai' | 'anthropic'; cost?: string } = {}): string {
  return `${agentConfig(agentUrl)}judge: { provider: ${opts.provider ?? 'openai'}, baseUrl: "${judgeUrl}", model: m1, apiKey: sk-calibrate-secret, retries: 0, backoffMs: 0 }\ncost: ${opts.cost ?? '{ capUsd: 5 }'}\n`;
}

const FIXTURES = [
  'fixtures:',
  '  - { label: polite-a, message: a, assert: { judge: "The reply is polite", threshold: 0.5 } }',
  '  - { label: polite-b, message: b, assert: { judge: "The reply is polite", threshold: 0.5 } }',
  '  - { label: polite-c, message: c, assert: { judge: "The reply is polite", threshold: 0.5 } }',
  '  - { label: plain, message: p, assert: { contains: "p" } }',
  '  - { label: fresh, message: f, assert: { judge: "The reply is polite", threshold: 0.5 } }',
  '',
].join('\n');

const PERSONAS = [
  'personas:',
  '  - label: order-ok',
  '    opening: Where is my order?',
  '    followUps: [ "Order 77" ]',
  '    expect:',
  '      terminal: finish',
  '      criteria: [ "Mentioned the order number", "The reply is polite" ]',
  '  - label: order-failed',
  '    opening: Where is my order?',
  '    expect:',
  '      criteria: [ "Mentioned the order number" ]',
  '',
].join('\n');

function personaBaseline(label: string, replies: string[], verdict: 'pass' | 'fail'): PersonaBaseline {
  return {
    label,
    kind: 'persona',
    transcript: [{ message: null, reply: 'Welcome!', route: null }, ...replies.map((reply, i) => ({ message: i === 0 ? 'Where is my order?' : 'Order 77', reply, route: { conversation: 'orders', stage: `s${i}` } }))],
    visited: ['orders'],
    outcome: 'finish',
    verdict,
    acceptedAt: '2026-11-01T10:00:00.000Z',
    commit: null,
  };
}

interface Project {
  cwd: string;
  agent: AgentServer;
}

/** Three polite-criterion fixture baselines (one accepted pass although rude: the planted disagreement) and two persona baselines. */
async function project(judgeUrl: string, opts: Parameters<typeof config>[2] = {}, fixtures = FIXTURES): Promise<Project> {
  const agent = await serve();
  const cwd = await makeProject({
    config: config(agent.url, judgeUrl, opts),
    fixtures: { 'polite.yml': fixtures },
    personas: { 'orders.yml': PERSONAS },
    baselines: [
      baseline('polite-a', 'Thank you, happy to help.', null, 'pass'),
      baseline('polite-b', 'That is a rude question.', null, 'fail'),
      baseline('polite-c', 'rude: figure it out yourself', null, 'pass'),
      baseline('plain', 'p', null, 'pass'),
    ],
  });
  const dir = join(cwd, '.agent-replay', 'baselines');
  await writeFile(join(dir, 'order-ok.json'), serializePersonaBaseline(personaBaseline('order-ok', ['Which order?', 'Order 77 left the warehouse today.'], 'pass')));
  await writeFile(join(dir, 'order-failed.json'), serializePersonaBaseline(personaBaseline('order-failed', ['It is on its way.'], 'fail')));
  return { cwd, agent };
}

describe('calibrate against an OpenAI-compatible judge', () => {
  it('agreement per criterion, the planted disagreement named with its baseline file, unknown verdicts skipped, and no agent request', async () => {
    const judge = await openaiJudge((q) => (q.criterion === 'Mentioned the order number' ? (/\border 77\b/i.test(q.material) ? 0.9 : 0.1) : politeness(q, 0)));
    const { cwd, agent } = await project(`${judge.url}/v1`);
    const r = await cli(['calibrate', '--out', 'calibration.json', '--markdown', 'calibration.md'], cwd);
    expect(r.stderr).toBe('progress: 6/6 judge calls\n'); // off a terminal: the last progress line, nothing else
    expect(r.code).toBe(0);
    expect(agent.requests).toHaveLength(0);
    // polite-a, polite-b, polite-c, order-ok twice (two criteria), order-failed (its only check): six calls.
    expect(judge.received).toHaveLength(6);
    expect(judge.received.every((q) => q.url === '/v1/chat/completions')).toBe(true);
    const lines = r.stdout.split('\n');
    // The judge's address, as calibration.json's judge.endpoint keeps it.
    expect(lines[0]).toBe(`calibrate: 2 criteria, 6 baselines re-judged once each by openai m1 at ${judge.url}/v1: 6 judge calls, ≈ $0.03 estimated`);
    expect(lines.find((l) => l.includes('The reply is polite'))).toMatch(/^ {2}The reply is polite +4 +75% \(3\/4\) +0\.00 +0$/);
    expect(lines.find((l) => l.startsWith('  Mentioned the order number'))).toMatch(/2 +100% \(2\/2\) +0\.00 +0$/);
    expect(r.stdout).toContain("Disagreements (1): the judge's verdict is not the accepted one\n  \"The reply is polite\" (thresholds 0.5, 0.7)\n    .agent-replay/baselines/polite-c.json  accepted pass, judged fail: 0.2 against 0.5\n");
    expect(r.stdout).toContain('Not calibrated: 1 judged item has no baseline yet (fresh)');
    expect(r.stdout).not.toContain('The judge agrees with every accepted verdict');
    // Where the files went, after the summary, as run and report say it.
    expect(r.stdout.endsWith(`\ncalibration: ${join(cwd, 'calibration.json')}\nmarkdown: ${join(cwd, 'calibration.md')}\n`)).toBe(true);

    const c = parseCalibration(await readFile(join(cwd, 'calibration.json'), 'utf8'), 'calibration.json');
    expect(c.spend).toEqual({ judgeCalls: 6, judgeRetries: 0 });
    // Where it was asked, as a run's fingerprint keeps it: the same model at another address is another judge.
    expect(c.judge).toMatchObject({ name: 'openai m1', model: 'openai/m1', endpoint: `${judge.url}/v1`, structuredOutput: { structured: true } });
    const polite = c.criteria.find((x) => x.criterion === 'The reply is polite');
    expect(polite?.items.map((i) => [i.label, i.accepted, i.median, i.agrees])).toEqual([
      ['polite-a', 'pass', 0.9, true],
      ['polite-b', 'fail', 0.2, true],
      ['polite-c', 'pass', 0.2, false],
      ['order-ok', 'pass', 0.9, true],
    ]);
    const order = c.criteria.find((x) => x.criterion === 'Mentioned the order number');
    expect(order?.items.map((i) => [i.label, i.kind, i.accepted, i.judged])).toEqual([
      ['order-ok', 'persona', 'pass', 'pass'],
      ['order-failed', 'persona', 'fail', 'fail'],
    ]);
    expect(c.withoutBaseline.map((w) => w.label)).toEqual(['fresh']);
    expect(JSON.stringify(c)).not.toContain('sk-calibrate-secret');

    // The persona criterion was judged on the baseline transcript, as a run's judge reads it.
    const stored = JSON.parse(await readFile(join(cwd, '.agent-replay', 'baselines', 'order-ok.json'), 'utf8')) as PersonaBaseline;
    const transcriptRequests = judge.received.map(asked).filter((q) => q.criterion === 'Mentioned the order number');
    expect(transcriptRequests.map((q) => q.material)).toContain(transcriptText(baselineTurns(stored)));
    expect(transcriptRequests[0]?.system).toContain('conversation between a user and a chatbot');

    const md = await readFile(join(cwd, 'calibration.md'), 'utf8');
    expect(md).toContain('| The reply is polite | 4 | 75% \\(3/4\\) | 0.00 | 0 |');
    expect(md).toContain(escapeInline(`by openai m1 at ${judge.url}/v1: 6 judge calls`));
    expect(md).toContain('- `.agent-replay/baselines/polite-c.json`: accepted pass, judged fail\\: 0.2 against 0.5');
  });

  it('a failed script with several checks and no stored result per criterion is skipped, named, and never sent', async () => {
    const judge = await openaiJudge(politeness);
    const agent = await serve();
    const cwd = await makeProject({
      config: config(agent.url, `${judge.url}/v1`),
      personas: { 'p.yml': 'label: two-checks\nopening: hi\nexpect:\n  terminal: finish\n  criteria: [ "Stayed calm" ]\n' },
    });
    await mkdir(join(cwd, '.agent-replay', 'baselines'), { recursive: true });
    await writeFile(join(cwd, '.agent-replay', 'baselines', 'two-checks.json'), serializePersonaBaseline({ ...personaBaseline('two-checks', ['Calm down.'], 'fail'), label: 'two-checks' }));
    const r = await cli(['calibrate', '--out', 'c.json'], cwd);
    expect(r.code).toBe(0);
    expect(judge.received).toHaveLength(0);
    expect(r.stdout).toContain('Skipped (1): the accepted verdict is not known, nothing was asked\n  .agent-replay/baselines/two-checks.json  "Stayed calm": the script failed when accepted');
    expect(r.stdout).toContain('Nothing to re-judge');
    const c = parseCalibration(await readFile(join(cwd, 'c.json'), 'utf8'), 'c.json');
    expect(c.skipped).toMatchObject([{ label: 'two-checks', criterion: 'Stayed calm', kind: 'persona' }]);
    expect(c.estimate.calls).toBe(0);
  });

  it('each reason a baseline is skipped for gives its next step, and following it gives the baseline a known verdict', async () => {
    // The fixture's new reply fails its judge too (a fixture's baseline keeps only a judge result that agrees with its verdict, as the step says).
    const judge = await openaiJudge((q) => (q.material.includes('echo: hello') ? 0.2 : 0.9));
    const agent = await serve();
    const cwd = await makeProject({
      config: config(agent.url, `${judge.url}/v1`),
      fixtures: { 'list.yml': 'fixtures:\n  - { label: listed, message: hello, assert: [ { contains: "refund" }, { judge: "Stayed calm" } ] }\n' },
      // The echo agent's route is "echo": the conversations check fails, and the criterion is judged.
      personas: { 'p.yml': 'label: two-checks\nopening: hi\nexpect:\n  conversations: [ refunds ]\n  criteria: [ "Stayed calm" ]\n' },
      baselines: [baseline('listed', 'echo hello', null, 'fail')],
    });
    await writeFile(join(cwd, '.agent-replay', 'baselines', 'two-checks.json'), serializePersonaBaseline({ ...personaBaseline('two-checks', ['Calm down.'], 'fail'), label: 'two-checks' }));
    const r = await cli(['calibrate', '--markdown', 'c.md'], cwd);
    expect(r.code).toBe(0);
    // Grouped by reason, each said once with its baselines, then its next step.
    expect(r.stdout).toContain(
      'Skipped (2): the accepted verdict is not known, nothing was asked\n' +
        '  1 of 2: the fixture failed when accepted and its baseline keeps no judge result for this criterion, so which check failed is not known\n' +
        '    "Stayed calm": .agent-replay/baselines/: listed.json\n    next: ',
    );
    expect(r.stdout).toContain('  1 of 2: the script failed when accepted and its baseline keeps no judge result for this criterion, so which check failed is not known\n    "Stayed calm": .agent-replay/baselines/: two-checks.json\n    next: ');
    const steps = r.stdout.split('\n').filter((l) => l.startsWith('    next: '));
    const step = (file: string, label: string, what: string, limit = ''): string =>
      `    next: to calibrate against it, remove its baseline and accept it again from a run with the judge, so that its new baseline keeps the judge's result for each criterion (a ${what} accepted unchanged leaves a baseline as it is; read the run's result first: accepting says its verdict is right${limit}): rm ${file}, then npx agent-replay run --only ${label}, then npx agent-replay accept`;
    // One per reason (the fixture's, the script's), each after the list, in the list's order.
    expect(steps).toEqual([
      step('.agent-replay/baselines/listed.json', 'listed', 'reply', "; while another check fails and the judge passes, accept refuses it, since a fixture's baseline keeps only a judge result that agrees with its verdict"),
      step('.agent-replay/baselines/two-checks.json', 'two-checks', 'transcript'),
    ]);
    const md = await readFile(join(cwd, 'c.md'), 'utf8');
    expect(md.split('\n').filter((l) => l.startsWith('Next: '))).toEqual(steps.map((l) => `Next: ${escapeInline(l.slice('    next: '.length))}`));
    expect(md).toContain('### Skipped: accepted verdict unknown (2)\n\n**1 of 2\\: the fixture failed when accepted and its baseline keeps no judge result for this criterion, so which check failed is not known**\n\n- Stayed calm: `.agent-replay/baselines/`: `listed.json`\n\nNext: ');
    // Followed as written (in process): both baselines get a known verdict, and are re-judged.
    for (const line of steps) {
      const [, file = '', label = ''] = /: rm (\S+), then npx agent-replay run --only (\S+), then npx agent-replay accept$/.exec(line) ?? [];
      await rm(join(cwd, file));
      await cli(['run', '--only', label], cwd);
      const accepted = await cli(['accept'], cwd);
      expect(accepted.stdout).toContain(`accepted  ${label} (fail)`);
    }
    const again = await cli(['calibrate', '--out', 'c.json'], cwd);
    expect(again.code).toBe(0);
    expect(again.stdout).not.toContain('Skipped');
    const c = parseCalibration(await readFile(join(cwd, 'c.json'), 'utf8'), 'c.json');
    expect(c.skipped).toEqual([]);
    expect(c.criteria[0]?.items.map((i) => [i.label, i.acceptedFrom])).toEqual([
      ['listed', 'stored_result'],
      ['two-checks', 'stored_result'],
    ]);
  });

  it('a judged fixture whose baseline says fail beside a kept judge result that passes is skipped as a contradiction, not a stored agreement; its tally-failed repeat calibrates against the kept result', async () => {
    const judge = await openaiJudge(() => 0.9);
    const agent = await serve();
    const kept = (score: number): Baseline['judge'] => ({ score, rationale: 'kind', fingerprint: { model: 'openai/m1', promptVersion: '2', criteria: [{ criterion: 'Stayed calm', threshold: 0.5 }] } });
    const cwd = await makeProject({
      config: config(agent.url, `${judge.url}/v1`),
      fixtures: { 'f.yml': 'fixtures:\n  - { label: edited, message: a, assert: { judge: "Stayed calm", threshold: 0.5 } }\n  - { label: tallied, message: b, assert: { judge: "Stayed calm", threshold: 0.5 } }\n  - { label: agreed, message: c, assert: { judge: "Stayed calm", threshold: 0.5 } }\n' },
      baselines: [
        // The verdict typed "fail" by hand beside the judge's passing result: the loader cannot tell it from a list's whose other check failed.
        { ...baseline('edited', 'Calm reply.', null, 'fail'), judge: kept(0.9) },
        // Repeated: 1 of 3 attempts passed, and the shown one, the reply kept, passed its judge.
        { ...baseline('tallied', 'Calm too.', null, 'fail'), attempts: { passed: 1, total: 3 }, judge: kept(0.8) },
        { ...baseline('agreed', 'Calm three.', null, 'fail'), judge: kept(0.2) },
      ],
    });
    const r = await cli(['calibrate', '--out', 'c.json'], cwd);
    expect(r.code).toBe(0);
    // edited is never sent; tallied and agreed are.
    expect(judge.received.map((q) => asked(q).material)).toEqual(['Calm too.', 'Calm three.']);
    expect(r.stdout).toContain(
      'Skipped (1): the accepted verdict is not known, nothing was asked\n' +
        `  .agent-replay/baselines/edited.json  "Stayed calm": ${SINGLE_JUDGE_CONTRADICTION}\n` +
        '  next: if "fail" is right (a baseline corrected by hand), remove the judge block from its baseline and calibrate reads its verdict; else, to calibrate against it, remove its baseline and accept it again',
    );
    const c = parseCalibration(await readFile(join(cwd, 'c.json'), 'utf8'), 'c.json');
    expect(c.skipped).toMatchObject([{ label: 'edited', reason: SINGLE_JUDGE_CONTRADICTION }]);
    expect(c.criteria[0]?.items.map((i) => [i.label, i.accepted, i.acceptedFrom, i.agrees])).toEqual([
      ['tallied', 'pass', 'stored_result', true],
      ['agreed', 'fail', 'stored_result', false],
    ]);
  });

  it('the Disagreements and Straddling lists show their first 20 baselines, each with its own score, then how many more and where each is', async () => {
    // 22 accepted pass that the judge fails (0.10 .. 0.31), 21 that it passes within 0.1 of the threshold (0.500 .. 0.520).
    const judge = await openaiJudge((q) => {
      const [, kind = '', n = '0'] = /^(rude|near) (\d+)$/.exec(q.material) ?? [];
      return kind === 'rude' ? 0.1 + Number(n) / 100 : 0.5 + Number(n) / 1000;
    });
    const agent = await serve();
    const names = [...Array.from({ length: 22 }, (_, i) => `rude ${String(i).padStart(2, '0')}`), ...Array.from({ length: 21 }, (_, i) => `near ${String(i).padStart(2, '0')}`)];
    const label = (name: string): string => name.replace(' ', '-');
    const cwd = await makeProject({
      config: config(agent.url, `${judge.url}/v1`),
      fixtures: { 'f.yml': `fixtures:\n${names.map((n) => `  - { label: ${label(n)}, message: m, assert: { judge: "Stayed calm", threshold: 0.5 } }\n`).join('')}` },
      baselines: names.map((n) => baseline(label(n), n, null, 'pass')),
    });
    const r = await cli(['calibrate', '--out', 'c.json', '--markdown', 'c.md'], cwd);
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    const at = lines.indexOf("Disagreements (22): the judge's verdict is not the accepted one");
    expect(lines.slice(at + 1, at + 2)).toEqual(['  "Stayed calm" (threshold 0.5)']);
    // Each shown baseline with its own score and the judge's rationale, then the two more.
    const shown = lines.slice(at + 2, at + 42).filter((l) => l.startsWith('    .agent-replay'));
    expect(shown).toEqual(Array.from({ length: 20 }, (_, i) => `    .agent-replay/baselines/rude-${String(i).padStart(2, '0')}.json  accepted pass, judged fail: ${Number((0.1 + i / 100).toFixed(3))} against 0.5`));
    expect(lines[at + 42]).toBe('  … and 2 more, each with its score in c.json');
    expect(r.stdout).not.toContain('rude-20.json');
    const st = lines.findIndex((l) => l.startsWith('Straddling (21): '));
    expect(lines.slice(st + 1, st + 21)).toEqual(Array.from({ length: 20 }, (_, i) => `  .agent-replay/baselines/near-${String(i).padStart(2, '0')}.json  "Stayed calm"  accepted pass, judged pass: ${Number((0.5 + i / 1000).toFixed(3))} against 0.5`));
    expect(lines[st + 21]).toBe('  … and 1 more, each with its score in c.json');
    expect(lines[st + 22]).toBe('');
    const md = await readFile(join(cwd, 'c.md'), 'utf8');
    expect(md.split('\n').filter((l) => l.startsWith('  - `.agent-replay/baselines/rude-'))).toHaveLength(20);
    expect(md).toContain(`\n- ${escapeInline('… and 2 more, each with its score in c.json')}\n`);
    expect(md.split('\n').filter((l) => l.startsWith('- `.agent-replay/baselines/near-'))).toHaveLength(20);
    expect(md).toContain(`\n- ${escapeInline('… and 1 more, each with its score in c.json')}\n`);
    // Every one of them, with its score, in calibration.json.
    const c = parseCalibration(await readFile(join(cwd, 'c.json'), 'utf8'), 'c.json');
    expect(c.criteria[0]?.items.filter((i) => i.agrees === false)).toHaveLength(22);
    expect(c.criteria[0]?.items.find((i) => i.label === 'rude-21')?.median).toBe(0.31);
    // Without --out, the line says how to get the file.
    const plain = await cli(['calibrate'], cwd);
    expect(plain.stdout).toContain('\n  … and 2 more, each with its score in calibration.json: --out calibration.json writes it\n');
  });

  it('--repeat N: the median of N scores that differ per call, the spread, and straddling', async () => {
    const varying = [0.6, 0.9, 0.75];
    const judge = await openaiJudge((q, nth) => (q.material.startsWith('Thank you') ? (varying[nth] as number) : politeness(q, 0)));
    const fixtures = ['fixtures:', '  - { label: polite-a, message: a, assert: { judge: "The reply is polite", threshold: 0.7 } }', '  - { label: polite-b, message: b, assert: { judge: "The reply is polite", threshold: 0.7 } }', ''].join('\n');
    const { cwd } = await project(`${judge.url}/v1`, {}, fixtures);
    const r = await cli(['calibrate', '--repeat', '3', '--out', 'c.json'], cwd);
    expect(r.code).toBe(0);
    // 2 fixtures and the 3 persona criteria, 3 times each.
    expect(judge.received).toHaveLength(15);
    const c = parseCalibration(await readFile(join(cwd, 'c.json'), 'utf8'), 'c.json');
    const a = c.criteria.find((x) => x.criterion === 'The reply is polite')?.items.find((i) => i.label === 'polite-a');
    expect([...(a?.scores ?? [])].sort()).toEqual([0.6, 0.75, 0.9]);
    expect(a).toMatchObject({ median: 0.75, spread: 0.3, judged: 'pass', agrees: true, straddling: true });
    expect(c.criteria.find((x) => x.criterion === 'The reply is polite')).toMatchObject({ spread: 0.3, straddling: 1 });
    expect(r.stdout).toMatch(/ {2}The reply is polite +3 +100% \(3\/3\) +0\.30 +1\n/);
    expect(r.stdout).toContain('Straddling (1): the score sits within 0.1 of the threshold, so a small change flips it\n  .agent-replay/baselines/polite-a.json  "The reply is polite"  accepted pass, judged pass: median 0.75 (3 scores, 0.6 .. 0.9) against 0.7\n');
  });

  it('an answer with no usable score is counted, never a score, and left out of the agreement', async () => {
    const judge = await openaiJudge((q) => (q.material.startsWith('Thank you') ? 'I would rather not put a number on it.' : politeness(q, 0)));
    const { cwd } = await project(`${judge.url}/v1`);
    const r = await cli(['calibrate', '--out', 'c.json'], cwd);
    expect(r.code).toBe(0);
    const c = parseCalibration(await readFile(join(cwd, 'c.json'), 'utf8'), 'c.json');
    const polite = c.criteria.find((x) => x.criterion === 'The reply is polite');
    expect(polite).toMatchObject({ baselines: 4, scored: 3, agreeing: 2, notUsableAnswers: 1 });
    expect(polite?.items[0]).toMatchObject({ label: 'polite-a', median: null, agrees: null, scores: [] });
    expect(r.stdout).toContain('No usable score (1): counted, never a score; left out of the agreement\n  .agent-replay/baselines/polite-a.json  "The reply is polite": no usable score in output');
    // What to do about it, as a run's cause says it.
    expect(r.stdout).toContain(`"The reply is polite": no usable score in output: "I would rather not put a number on it."\n  fix: use a judge model that follows the prompt, or an endpoint with structured output (${docsUrl('judges.md', 'Structured output and its fallback')})\n`);
  });

  it('a judge that gives no usable score at all: said so, and --min-agreement fails (exit 1), since it cannot be shown to hold', async () => {
    const judge = await openaiJudge(() => 'I would rather not put a number on it.');
    const { cwd } = await project(`${judge.url}/v1`);
    const r = await cli(['calibrate', '--min-agreement', '0.8', '--markdown', 'c.md'], cwd);
    expect(r.code).toBe(1);
    // The notes end the summary; the file written is said after it.
    const notes = r.stdout.trimEnd().split('\n\n').at(-2);
    expect(r.stdout.trimEnd().split('\n\n').at(-1)).toBe(`markdown: ${join(cwd, 'c.md')}`);
    expect(notes).toBe('No criterion got a usable score, so nothing was measured, and --min-agreement 0.8 (80%) cannot be shown to hold, so it fails (exit 1): see No usable score above.');
    expect(r.stdout).not.toContain('Every criterion with a score');
    expect(r.stdout).not.toContain('Spread needs repeats');
    expect(await readFile(join(cwd, 'c.md'), 'utf8')).toContain('No criterion got a usable score, so nothing was measured, and --min-agreement 0.8 \\(80%\\) cannot be shown to hold, so it fails \\(exit 1\\)\\: see No usable score above.');
    // A criterion with no score has no straddling count either: "-" as its spread, not 0.
    expect(await readFile(join(cwd, 'c.md'), 'utf8')).toContain('| The reply is polite | 4 | no score | \\- | \\- |');
    expect(r.stdout).toMatch(/ {2}The reply is polite +4 +no score +- +-\n/);
    // Without a minimum, nothing fails: the figures are the output.
    expect((await cli(['calibrate'], cwd)).code).toBe(0);
    // Nothing to re-judge (no baseline): the minimum is not said to be met either.
    const bare = await makeProject({ config: config('http://127.0.0.1:9/chat', `${judge.url}/v1`), fixtures: { 'polite.yml': FIXTURES } });
    const none = await cli(['calibrate', '--min-agreement', '0.8'], bare);
    expect(none.code).toBe(0);
    expect(none.stdout).toContain('Nothing was re-judged, so --min-agreement 0.8 (80%) was not checked.');
    expect(none.stdout).not.toContain('Every criterion with a score');
  });

  it('--min-agreement fails for a criterion with no usable score beside others that agree (exit 1), naming it', async () => {
    const judge = await openaiJudge((q) => (q.criterion === 'The reply is polite' ? politeness(q, 0) : 'I would rather not put a number on it.'));
    const { cwd } = await project(`${judge.url}/v1`);
    const r = await cli(['calibrate', '--min-agreement', '0.5'], cwd);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/Every criterion with a score agrees at least 50% \(--min-agreement 0\.5\)\. \d+ criteri(on|a) got no usable score, so --min-agreement fails for (it|them) \(exit 1\): "/);
    expect(r.stdout).toContain('"Mentioned the order number"');
  });

  it('the cost cap: above it exits 2 with the figures and sends nothing; --confirm-cost runs it', async () => {
    const judge = await openaiJudge(politeness);
    const { cwd, agent } = await project(`${judge.url}/v1`, { cost: '{ judgeCallUsd: 0.5, capUsd: 1 }' });
    const refused = await cli(['calibrate', '--repeat', '2'], cwd);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain('not run: the estimated cost $6.00 for 12 judge calls (6 baselines x --repeat 2 x $0.50 a call) is above the cost cap $1.00.');
    expect(refused.stderr).toContain('rerun with --confirm-cost');
    expect(judge.received).toHaveLength(0);
    const confirmed = await cli(['calibrate', '--repeat', '2', '--confirm-cost'], cwd);
    expect(confirmed.code).toBe(0);
    expect(judge.received).toHaveLength(12);
    expect(agent.requests).toHaveLength(0);
  });

  it('--min-agreement: exit 1 naming the criterion below it, 0 at or above it', async () => {
    const judge = await openaiJudge((q) => (q.criterion === 'Mentioned the order number' ? (/\border 77\b/i.test(q.material) ? 0.9 : 0.1) : politeness(q, 0)));
    const { cwd } = await project(`${judge.url}/v1`);
    const strict = await cli(['calibrate', '--min-agreement', '0.8', '--out', 'c.json'], cwd);
    expect(strict.code).toBe(1);
    expect(strict.stdout).toContain('1 criterion is below --min-agreement 0.8 (80%): "The reply is polite".');
    const c = calibrationSchema().parse(JSON.parse(await readFile(join(cwd, 'c.json'), 'utf8')));
    expect(c.criteria.map((x) => [x.criterion, x.belowMinAgreement])).toEqual([
      ['The reply is polite', true],
      ['Mentioned the order number', false],
    ]);
    const lenient = await cli(['calibrate', '--min-agreement', '0.75'], cwd);
    expect(lenient.code).toBe(0);
    expect(lenient.stdout).toContain('Every criterion with a score agrees at least 75% (--min-agreement 0.75).');
  });

  it('a judge endpoint that refuses the schema mechanism: the calibration falls back to the plain prompt and says so', async () => {
    const server = await startServer([
      (res, req) => {
        const body = req.body as { response_format?: unknown };
        if (body.response_format !== undefined) {
          res.writeHead(400, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { message: 'response_format json_schema is not supported' } }));
          return;
        }
        const s = politeness(asked(req), 0);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: JSON.stringify({ rationale: 'plain', score: s }) } }] }));
      },
    ]);
    judges.push(server);
    const agent = await serve();
    const cwd = await makeProject({
      config: config(agent.url, `${server.url}/v1`).replace('retries: 0,', 'retries: 0, concurrency: 1,'),
      fixtures: { 'x.yml': 'label: rude-one\nmessage: hi\nassert: { judge: "The reply is polite", threshold: 0.5 }\n' },
      baselines: [baseline('rude-one', 'rude reply', null, 'fail')],
    });
    const r = await cli(['calibrate', '--out', 'c.json'], cwd);
    expect(r.code).toBe(0);
    const c = parseCalibration(await readFile(join(cwd, 'c.json'), 'utf8'), 'c.json');
    expect(c.judge.structuredOutput).toEqual({ structured: false, reason: 'HTTP 400: response_format json_schema is not supported' });
    expect(c.criteria[0]).toMatchObject({ agreement: 1, scored: 1 });
    expect(c.spend.judgeCalls).toBe(1);
  });

  it('a panel whose members take more calls at once than judge.concurrency: each member gets its own limit', async () => {
    // Every model's call is answered only once a second call of that model is in flight: a member
    // held to one call at a time (judge.concurrency: 1) waits until its timeout and gives no score.
    const held = new Map<string, (() => void)[]>();
    const server = await startServer([
      (res, req) => {
        const model = (req.body as { model: string }).model;
        const answer = (): void => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: JSON.stringify({ rationale: 'polite', score: 0.9 }) } }] }));
        };
        const waiting = held.get(model) ?? [];
        if (waiting.length === 0) {
          held.set(model, [answer]);
          return;
        }
        held.set(model, []);
        for (const w of [...waiting, answer]) w();
      },
    ]);
    judges.push(server);
    const agent = await serve();
    const panel = 'concurrency: 1, timeoutMs: 3000, panel: [ { model: a, concurrency: 2 }, { model: b, concurrency: 2 }, { model: c, concurrency: 2 } ] }';
    const cwd = await makeProject({
      config: config(agent.url, `${server.url}/v1`).replace('backoffMs: 0 }', `backoffMs: 0, ${panel}`),
      fixtures: { 'x.yml': 'fixtures:\n  - { label: p1, message: a, assert: { judge: "The reply is polite", threshold: 0.5 } }\n  - { label: p2, message: b, assert: { judge: "The reply is polite", threshold: 0.5 } }\n' },
      baselines: [baseline('p1', 'kind reply one', null, 'pass'), baseline('p2', 'kind reply two', null, 'pass')],
    });
    const r = await cli(['calibrate', '--out', 'c.json'], cwd);
    expect(r.code).toBe(0);
    const c = parseCalibration(await readFile(join(cwd, 'c.json'), 'utf8'), 'c.json');
    expect(c.criteria[0]).toMatchObject({ baselines: 2, scored: 2, agreement: 1, notUsableAnswers: 0 });
    expect(c.spend.judgeCalls).toBe(6);
    expect(server.received).toHaveLength(6);
  });

  it('off a terminal, a plain progress line every 10 s of the injected clock', async () => {
    const judge = await openaiJudge(politeness);
    const { cwd } = await project(`${judge.url}/v1`);
    let t = Date.parse('2026-12-01T12:00:00.000Z');
    const r = await cli(['calibrate'], cwd, {}, { now: () => new Date((t += 4000)) });
    expect(r.code).toBe(0);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).toMatch(/^progress: [1-6]\/6 judge calls$/);
  });

  it('off a terminal, a last plain progress line when every answer is in, as run prints one (docs/cli.md)', async () => {
    const judge = await openaiJudge(politeness);
    const { cwd } = await project(`${judge.url}/v1`);
    // The clock stands still: no 10 s went by, and the end is still said.
    const r = await cli(['calibrate'], cwd, {}, { now: () => new Date('2026-12-01T12:00:00.000Z') });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('progress: 6/6 judge calls\n');
  });

  it("on a terminal, the progress line is drawn as run's: cut to the terminal's width, and ended by the last answer", async () => {
    const judge = await openaiJudge(politeness);
    const { cwd } = await project(`${judge.url}/v1`);
    await writeFile(join(cwd, '.agent-replay', 'config.yml'), (await readFile(join(cwd, '.agent-replay', 'config.yml'), 'utf8')).replace('backoffMs: 0 }', 'backoffMs: 0, concurrency: 1 }'));
    // A line wider than the terminal would wrap, and leave its first rows behind at each redraw.
    const r = await cli(['calibrate'], cwd, {}, { isTTY: true, columns: 10 });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe([1, 2, 3, 4, 5, 6].map((n) => `\r\x1b[2K[${n}/6] jud`).join('') + '\n');
  });

  it('on a dumb terminal (TERM=dumb), the plain progress lines too: no escape sequence', async () => {
    const judge = await openaiJudge(politeness);
    const { cwd } = await project(`${judge.url}/v1`);
    let t = Date.parse('2026-12-01T12:00:00.000Z');
    const r = await cli(['calibrate'], cwd, { TERM: 'dumb' }, { isTTY: true, now: () => new Date((t += 4000)) });
    expect(r.code).toBe(0);
    expect(r.stdout + r.stderr).not.toContain('\x1b');
    expect(r.stdout + r.stderr).not.toContain('\r');
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).toMatch(/^progress: [1-6]\/6 judge calls$/);
  });

  it('criteria and rationales are escaped in the markdown', async () => {
    const judge = await openaiJudge(() => '{"score": 0.1, "rationale": "<img src=x onerror=alert(1)> | @team see #12"}');
    const agent = await serve();
    const cwd = await makeProject({
      config: config(agent.url, `${judge.url}/v1`),
      fixtures: { 'x.yml': 'label: tricky\nmessage: hi\nassert: { judge: "Says <b>hi</b> | @team", threshold: 0.5 }\n' },
      baselines: [baseline('tricky', 'hi', null, 'pass')],
    });
    const r = await cli(['calibrate', '--markdown', 'c.md'], cwd);
    expect(r.code).toBe(0);
    const md = await readFile(join(cwd, 'c.md'), 'utf8');
    expect(md).not.toContain('<b>');
    expect(md).not.toContain('<img');
    expect(md).not.toMatch(/@team/);
    expect(md).toContain('| Says &lt;b&gt;hi&lt;/b&gt; \\| @&#8288;team | 1 | 0% \\(0/1\\) |');
    expect(md).not.toContain('**Suite**');
    expect(r.stdout).toMatch(/^calibrate: /);
    // A suite in another folder of its repository (a second suite of a monorepo): named above the
    // heading, as run's --markdown names it, and on the terminal's first line.
    await mkdir(join(cwd, '.git'));
    await mkdir(join(cwd, 'apps/sales'), { recursive: true });
    await rename(join(cwd, '.agent-replay'), join(cwd, 'apps/sales/.agent-replay'));
    const sales = await cli(['calibrate', '--dir', 'apps/sales/.agent-replay', '--markdown', 'sales.md'], cwd);
    expect(sales.code).toBe(0);
    expect(await readFile(join(cwd, 'sales.md'), 'utf8')).toMatch(/^\*\*Suite\*\* `apps\/sales\/\.agent-replay`\n\n## Judge calibration\n/);
    expect(sales.stdout).toMatch(/^suite: apps\/sales\/\.agent-replay\ncalibrate: /);
  });
});

describe('calibrate against an Anthropic judge', () => {
  it('asks through the messages API with the forced verdict tool and names the disagreement', async () => {
    const judge = await anthropicJudge((q) => (q.criterion === 'Mentioned the order number' ? (/\border 77\b/i.test(q.material) ? 0.9 : 0.1) : politeness(q, 0)));
    const { cwd, agent } = await project(`${judge.url}/v1`, { provider: 'anthropic' });
    const r = await cli(['calibrate', '--out', 'c.json'], cwd);
    expect(r.code).toBe(0);
    expect(agent.requests).toHaveLength(0);
    expect(judge.received).toHaveLength(6);
    expect(judge.received.every((q) => q.url === '/v1/messages' && (q.body as { tool_choice?: { name?: string } }).tool_choice?.name === 'verdict')).toBe(true);
    expect(r.stdout).toContain('.agent-replay/baselines/polite-c.json  accepted pass, judged fail: 0.2 against 0.5');
    expect(r.stdout).toContain('      judge: anthropic 0.2');
    const c = parseCalibration(await readFile(join(cwd, 'c.json'), 'utf8'), 'c.json');
    expect(c.judge.model).toBe('anthropic/m1');
  });
});

describe('calibrate usage', () => {
  it('bad values and mistyped flags are one line with the fix, exit 2, nothing sent', async () => {
    const judge = await openaiJudge(politeness);
    const { cwd } = await project(`${judge.url}/v1`);
    const cases: [string[], string][] = [
      [['calibrate', '--repeat', '0'], 'agent-replay: --repeat must be a whole number from 1 to 20, got "0"'],
      [['calibrate', '--repeat', '21'], 'agent-replay: --repeat must be a whole number from 1 to 20, got "21"'],
      [['calibrate', '--min-agreement', '90'], 'agent-replay: --min-agreement must be a fraction from 0 to 1 (0.9 for 90%), got "90"'],
      [['calibrate', '--repaet', '3'], 'agent-replay: unknown option --repaet for "calibrate"; did you mean --repeat?'],
      [['calibrate', '--only', 'x'], 'agent-replay: --only is not an option of "calibrate"'],
    ];
    for (const [argv, first] of cases) {
      const r = await cli(argv, cwd);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr.split('\n')[0]).toContain(first);
      expect(r.stderr.split('\n')[1]).toBe("Run 'agent-replay calibrate --help' for its options.");
    }
    expect(judge.received).toHaveLength(0);
  });

  it('--help lists its flags from the option table', async () => {
    const r = await cli(['calibrate', '--help'], tmpdir());
    expect(r.code).toBe(0);
    for (const flag of ['--dir DIR', '--judge-url URL', '--repeat N', '--min-agreement P', '--confirm-cost', '--out FILE', '--markdown FILE']) expect(r.stdout).toContain(`  ${flag}`);
  });

  it('no judge configured: a configuration error, exit 2', async () => {
    const agent = await serve();
    const cwd = await makeProject({ config: agentConfig(agent.url), fixtures: { 'a.yml': 'label: a\nmessage: hi\nassert: { judge: "Is kind" }\n' } });
    const r = await cli(['calibrate'], cwd);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no judge is configured');
  });
});

describe('calibrate on the demo suite against the demo judge', () => {
  let demo: DemoServer;
  let cwd: string;
  beforeAll(async () => {
    demo = await startDemoServer();
    cwd = await mkdtemp(join(tmpdir(), 'agent-replay-calibrate-demo-'));
    await cp(join(process.cwd(), 'examples', 'demo', '.agent-replay'), join(cwd, '.agent-replay'), { recursive: true });
  });
  afterAll(async () => {
    await demo.close();
    await rm(cwd, { recursive: true, force: true });
  });

  it('prints agreement per criterion, then names a disagreement planted in one baseline', async () => {
    const args = ['calibrate', '--judge-url', demo.judgeBaseUrl, '--out', 'c.json'];
    const before = await cli(args, cwd);
    expect(before.code).toBe(0);
    const row = (out: string, criterion: string): string => out.split('\n').find((l) => l.startsWith(`  ${criterion}`)) ?? '';
    expect(row(before.stdout, 'Stayed empathetic')).toMatch(/1 +100% \(1\/1\) +0\.00 +0$/);
    expect(row(before.stdout, 'Mentioned the order number')).toMatch(/1 +100% \(1\/1\) +0\.00 +0$/);
    expect(row(before.stdout, 'The reply acknowledges the problem')).toMatch(/1 +100% \(1\/1\)/);
    expect(row(before.stdout, 'Gives an honest opinion of the handover')).toMatch(/1 +no score +- +-$/);
    expect(before.stdout).toContain('The judge agrees with every accepted verdict it scored (3 of 3).');
    // One script skipped for two criteria: its reason once, its baseline per criterion, one next step.
    expect(before.stdout).toContain(
      [
        'Skipped (2): the accepted verdict is not known, nothing was asked',
        '  all 2: the script failed when accepted and its baseline keeps no judge result for this criterion, so which check failed is not known',
        '    "Stayed empathetic": .agent-replay/baselines/: broken-item-replacement.json',
        '    "Offered a replacement before refunding": .agent-replay/baselines/: broken-item-replacement.json',
        '    next: to calibrate against it, remove its baseline and accept it again from a run with the judge, so that its new baseline keeps the judge\'s result for each criterion (a transcript accepted unchanged leaves a baseline as it is; read the run\'s result first: accepting says its verdict is right): rm .agent-replay/baselines/broken-item-replacement.json, then npx agent-replay run --only broken-item-replacement, then npx agent-replay accept',
        '',
      ].join('\n'),
    );

    // Plant: the accepted refund conversation no longer apologises, but stays accepted as a pass.
    const file = join(cwd, '.agent-replay', 'baselines', 'refund-broken-item.json');
    const b = JSON.parse(await readFile(file, 'utf8')) as PersonaBaseline;
    const last = b.transcript[b.transcript.length - 1] as PersonaBaseline['transcript'][number];
    last.reply = last.reply.replace('I am sorry it arrived broken. ', '');
    await writeFile(file, serializePersonaBaseline(b));
    const after = await cli(args, cwd);
    expect(after.code).toBe(0);
    expect(row(after.stdout, 'Stayed empathetic')).toMatch(/1 +0% \(0\/1\) +0\.00 +0$/);
    expect(after.stdout).toContain('  "Stayed empathetic" (threshold 0.7)\n    .agent-replay/baselines/refund-broken-item.json  accepted pass, judged fail: 0.2 against 0.7\n      judge: The reply does not acknowledge the problem.\n');
    expect((await cli([...args, '--min-agreement', '0.9'], cwd)).code).toBe(1);
  });
});
