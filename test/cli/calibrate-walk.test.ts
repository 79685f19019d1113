// `agent-replay calibrate` walked as a team adopting it (docs/calibration.md): the page's own
// commands, hand-edited baselines, a noisy judge, a panel, a judge that goes down mid-run or
// answers malformed JSON. Each figure is checked against a value worked out by hand here, with
// the formula it follows. Real loopback judges (test/judge/server.ts); the command runs in process.

import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { parseCalibration } from '../../src/calibrate/schema.js';
import { docsUrl } from '../../src/version.js';
import { escapeInline } from '../../src/report/escape.js';
import { startServer, type TestServer } from '../judge/server.js';
import { startPanelJudge } from '../judge/panel-server.js';
import { prng } from '../support/prng.js';
import { agentConfig, baseline, cli, makeProject, useCleanup } from './helpers.js';

useCleanup();

const judges: TestServer[] = [];
afterEach(async () => {
  while (judges.length > 0) await judges.pop()?.close();
});

/** The reply a judge request carries (OpenAI-compatible body). */
function replyOf(body: unknown): string {
  const user = (body as { messages: { role: string; content: string }[] }).messages.find((m) => m.role === 'user')?.content ?? '';
  return /<(reply-[0-9a-f-]+)>\n([\s\S]*)\n<\/\1>/.exec(user)?.[2] ?? '';
}

function answer(res: ServerResponse, score: number, rationale = `scored ${score}`): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: JSON.stringify({ rationale, score }) } }] }));
}

/** A loopback judge; `nth` counts its requests from 0. */
async function judgeServer(respond: (reply: string, nth: number, res: ServerResponse) => void): Promise<TestServer> {
  let nth = 0;
  const server = await startServer([(res, req) => respond(replyOf(req.body), nth++, res)]);
  judges.push(server);
  return server;
}

/** Replies "good N" score 0.9, "rude N" 0.1. */
const fair = (reply: string, _nth: number, res: ServerResponse): void => answer(res, reply.startsWith('good') ? 0.9 : 0.1);

/**
 * `n` fixtures judged on "The reply is polite" at 0.5, each with a baseline: even ones "good i"
 * accepted pass, odd ones "rude i" accepted fail, unless `accepted` says otherwise.
 */
async function suite(judgeUrl: string, n: number, opts: { judge?: string; accepted?: (i: number) => 'pass' | 'fail' } = {}): Promise<string> {
  const fixtures = ['fixtures:', ...Array.from({ length: n }, (_, i) => `  - { label: f${i}, message: m${i}, assert: { judge: "The reply is polite", threshold: 0.5 } }`), ''].join('\n');
  const accepted = opts.accepted ?? ((i) => (i % 2 === 0 ? 'pass' : 'fail'));
  return makeProject({
    config: `${agentConfig('http://127.0.0.1:9/chat')}judge: { provider: openai, baseUrl: "${judgeUrl}/v1", model: m1, apiKey: k, retries: 0, backoffMs: 0${opts.judge ?? ''} }\ncost: { capUsd: 50 }\n`,
    fixtures: { 'polite.yml': fixtures },
    baselines: Array.from({ length: n }, (_, i) => baseline(`f${i}`, i % 2 === 0 ? `good ${i}` : `rude ${i}`, null, accepted(i))),
  });
}

describe('calibrate, walked as a team adopting it', () => {
  it("docs/calibration.md's Run it commands, copied verbatim, run as written and write the files they name", async () => {
    const page = await readFile('docs/calibration.md', 'utf8');
    const block = /## Run it\n\n```sh\n([\s\S]*?)```/.exec(page)?.[1] ?? '';
    const commands = block
      .trim()
      .split('\n')
      .map((l) => l.replace(/\s+#.*$/, '').trim());
    expect(commands).toHaveLength(3);
    const judge = await judgeServer(fair);
    const cwd = await suite(judge.url, 4);
    for (const command of commands) {
      expect(command.startsWith('npx agent-replay calibrate')).toBe(true);
      const r = await cli(command.replace(/^npx agent-replay /, '').split(' '), cwd);
      expect(r.code, `${command}\n${r.stderr}`).toBe(0);
      expect(r.stdout).toContain('The reply is polite  4          100% (4/4)');
    }
    // 4 baselines once, 5 times, once.
    expect(judge.received).toHaveLength(4 + 20 + 4);
    const c = parseCalibration(await readFile(join(cwd, 'calibration.json'), 'utf8'), 'calibration.json');
    expect(c).toMatchObject({ repeat: 1, minAgreement: 0.9 });
    expect(await readFile(join(cwd, 'calibration.md'), 'utf8')).toContain('Every criterion with a score agrees at least 90% \\(--min-agreement 0.9\\).');
  });

  it('a verdict typo\'d in a baseline ("pas") is refused with the verdict it stands for; nothing is sent', async () => {
    const judge = await judgeServer(fair);
    const cwd = await suite(judge.url, 2);
    const file = join(cwd, '.agent-replay', 'baselines', 'f0.json');
    await writeFile(file, (await readFile(file, 'utf8')).replace('"verdict": "pass"', '"verdict": "pas"'));
    const r = await cli(['calibrate'], cwd);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('error: .agent-replay/baselines/f0.json:5:14: verdict "pas" cannot be a baseline: only pass or fail is ever accepted\n  fix: write "verdict": "pass"; committed before the edit?');
    expect(r.stderr).toContain('nothing was sent to the judge');
    await writeFile(file, (await readFile(file, 'utf8')).replace('"verdict": "pas"', '"verdict": "fial"'));
    expect((await cli(['calibrate'], cwd)).stderr).toContain('  fix: write "verdict": "fail";');
    expect(judge.received).toHaveLength(0);
  });

  it('a missing suite folder, and a baseline whose fixture does not exist: each named with its fix', async () => {
    const judge = await judgeServer(fair);
    const cwd = await suite(judge.url, 2);
    const missing = await cli(['calibrate', '--dir', 'nope'], cwd);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('error: nope/fixtures: no fixtures folder: nope/fixtures does not exist');
    expect(judge.received).toHaveLength(0);
    const dir = join(cwd, '.agent-replay', 'baselines');
    await writeFile(join(dir, 'ghost.json'), (await readFile(join(dir, 'f0.json'), 'utf8')).replace('"label": "f0"', '"label": "ghost"'));
    const orphan = await cli(['calibrate'], cwd);
    expect(orphan.code).toBe(0);
    expect(orphan.stderr).toContain('warning: .agent-replay/baselines/ghost.json: orphan baseline: no fixture or persona script is labelled "ghost"\n  fix: delete .agent-replay/baselines/ghost.json');
    expect(judge.received).toHaveLength(2);
  });

  it('judged items without a baseline: the first 20 named, how many more, and the commands that give them one', async () => {
    const judge = await judgeServer(fair);
    const labels = Array.from({ length: 23 }, (_, i) => `item-${String(i).padStart(2, '0')}`);
    const cwd = await makeProject({
      config: `${agentConfig('http://127.0.0.1:9/chat')}judge: { provider: openai, baseUrl: "${judge.url}/v1", model: m1, apiKey: k }\n`,
      fixtures: { 'a.yml': `fixtures:\n${labels.map((l) => `  - { label: ${l}, message: m, assert: { judge: "Polite" } }\n`).join('')}` },
    });
    const r = await cli(['calibrate', '--markdown', 'c.md'], cwd);
    expect(r.stdout).toContain(`Not calibrated: 23 judged items have no baseline yet (${labels.slice(0, 20).join(', ')} and 3 more); to calibrate against them, replay the suite and accept its results: npx agent-replay run, then npx agent-replay accept.\n`);
    expect(await readFile(join(cwd, 'c.md'), 'utf8')).toContain(`Not calibrated, no baseline yet: ${labels.slice(0, 20).join(', ')} and 3 more; to calibrate against them, replay the suite and accept its results\\: npx agent-replay run, then npx agent-replay accept.`);
    expect(judge.received).toHaveLength(0);
    // A suite in another folder: the commands name it.
    const one = await makeProject({
      config: `${agentConfig('http://127.0.0.1:9/chat')}judge: { provider: openai, baseUrl: "${judge.url}/v1", model: m1, apiKey: k }\n`,
      fixtures: { 'a.yml': 'label: lone\nmessage: m\nassert: { judge: "Polite" }\n' },
    });
    await rename(join(one, '.agent-replay'), join(one, 'suite-b'));
    expect((await cli(['calibrate', '--dir', 'suite-b'], one)).stdout).toContain('Not calibrated: 1 judged item has no baseline yet (lone); to calibrate against it, replay the suite and accept its results: npx agent-replay run --dir suite-b, then npx agent-replay accept --dir suite-b.\n');
  });

  it('a noisy judge (seeded: wrong on 20% of baselines): the agreement is (n - wrong) / n, exactly', async () => {
    const random = prng(20261206);
    const n = 40;
    // Which baselines the judge gets wrong: a seeded fifth of them, drawn before any call, so the answer order never matters.
    const order = Array.from({ length: n }, (_, i) => i);
    for (let i = n - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j] as number, order[i] as number];
    }
    const wrong = new Set(order.slice(0, n / 5));
    const judge = await judgeServer((reply, _nth, res) => {
      const i = Number(/\d+$/.exec(reply)?.[0]);
      answer(res, reply.startsWith('good') !== wrong.has(i) ? 0.9 : 0.1);
    });
    const cwd = await suite(judge.url, n);
    const r = await cli(['calibrate', '--min-agreement', '0.9', '--out', 'c.json'], cwd);
    // By hand: agreement = agreeing / scored (docs/calibration.md, "How to read it": agreement), the percent whole.
    expect(wrong.size).toBe(8);
    const agreeing = n - wrong.size;
    expect(agreeing / n).toBe(0.8);
    expect(r.stdout).toMatch(/ {2}The reply is polite {2}40 {9}80% \(32\/40\) +0\.00 +0\n/);
    expect(r.stdout).toContain("Disagreements (8): the judge's verdict is not the accepted one\n");
    for (const i of wrong) expect(r.stdout).toContain(`.agent-replay/baselines/f${i}.json  accepted ${i % 2 === 0 ? 'pass, judged fail: 0.1' : 'fail, judged pass: 0.9'} against 0.5\n`);
    expect(r.code).toBe(1);
    const c = parseCalibration(await readFile(join(cwd, 'c.json'), 'utf8'), 'c.json');
    expect(c.criteria[0]).toMatchObject({ baselines: 40, scored: 40, agreeing: 32, agreement: 0.8, spread: 0, straddling: 0, belowMinAgreement: true });
    // Below the minimum, the next step is said: what to read and what to change.
    expect(r.stdout).toContain(`1 criterion is below --min-agreement 0.9 (90%): "The reply is polite". Next: read its disagreements above, then rewrite the criterion or correct a baseline accepted by mistake (${docsUrl('calibration.md', 'When to rewrite a criterion')}).\n`);
  });

  it('26/29 against --min-agreement 0.9 reads 89%, not 90% beside "below 90%"; 2/3 is below 0.6666667', async () => {
    // 3 of 29 baselines accepted against what the judge says: 26/29 = 0.8966, below 0.9, and Math.round(89.66) is 90.
    const judge = await judgeServer(fair);
    const cwd = await suite(judge.url, 29, { accepted: (i) => ((i < 3) !== (i % 2 === 0) ? 'pass' : 'fail') });
    const r = await cli(['calibrate', '--min-agreement', '0.9', '--markdown', 'c.md'], cwd);
    expect(r.code).toBe(1);
    expect(26 / 29).toBeLessThan(0.9);
    expect(Math.round((26 / 29) * 100)).toBe(90);
    expect(r.stdout).toMatch(/ {2}The reply is polite {2}29 {9}89% \(26\/29\) /);
    expect(r.stdout).toContain('1 criterion is below --min-agreement 0.9 (90%): "The reply is polite".');
    expect(await readFile(join(cwd, 'c.md'), 'utf8')).toContain('| The reply is polite | 29 | 89% \\(26/29\\) |');
    // A minimum with decimals: the percent is cut to them. 26/29 = 89.655...% is below 89.66%, and reads 89.65%.
    const decimals = await cli(['calibrate', '--min-agreement', '0.8966'], cwd);
    expect(decimals.code).toBe(1);
    expect(decimals.stdout).toMatch(/ {2}The reply is polite {2}29 {9}89\.65% \(26\/29\) /);
    expect(decimals.stdout).toContain('1 criterion is below --min-agreement 0.8966 (89.66%)');
    // Just at or above it, the whole percent stands: 26/29 against 0.8965 (89.65%) reads 90%.
    const at = await cli(['calibrate', '--min-agreement', '0.8965'], cwd);
    expect(at.code).toBe(0);
    expect(at.stdout).toContain('Every criterion with a score agrees at least 89.65% (--min-agreement 0.8965).');
    expect(judge.received).toHaveLength(3 * 29);

    // 2 of 3 agree: 2/3 = 0.6666..., below 0.6666667 (its six decimals, 0.666667, are not).
    const three = await judgeServer(fair);
    const small = await suite(three.url, 3, { accepted: (i) => (i === 2 ? 'fail' : i % 2 === 0 ? 'pass' : 'fail') });
    const below = await cli(['calibrate', '--min-agreement', '0.6666667', '--out', 'c.json'], small);
    expect(below.code).toBe(1);
    expect(below.stdout).toMatch(/ {2}The reply is polite {2}3 {10}66\.66666% \(2\/3\) /);
    expect(below.stdout).toContain('1 criterion is below --min-agreement 0.6666667 (66.66667%): "The reply is polite".');
    const c = parseCalibration(await readFile(join(small, 'c.json'), 'utf8'), 'c.json');
    expect(c.criteria[0]).toMatchObject({ agreeing: 2, scored: 3, agreement: 0.666667, belowMinAgreement: true });
  });

  it('a judge down mid-run: the baselines it failed are named with the fix, and the minimum line says they are not counted', async () => {
    // One call at a time: the first 3 answer, the rest get HTTP 503.
    const judge = await judgeServer((reply, nth, res) => {
      if (nth < 3) return fair(reply, nth, res);
      res.writeHead(503, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'overloaded' } }));
    });
    const cwd = await suite(judge.url, 6, { judge: ', concurrency: 1' });
    const r = await cli(['calibrate', '--min-agreement', '0.9', '--out', 'c.json'], cwd);
    // The documented contract: a criterion with some usable scores is measured on them (3/3), exit 0.
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/ {2}The reply is polite {2}6 {10}100% \(3\/3\) /);
    // Under their cause, as a run groups its items: the text they share once, then their files.
    expect(r.stdout).toContain(
      [
        'No usable score (3): counted, never a score; left out of the agreement',
        '  all 3: judge unreachable: HTTP 503',
        '    each: HTTP 503: overloaded',
        '    "The reply is polite": .agent-replay/baselines/: f3.json, f4.json, f5.json',
        '',
      ].join('\n'),
    );
    expect(r.stdout).toContain("  fix: the judge's endpoint failed: see its status or log, and run it again\n");
    expect(r.stdout).toContain('Every criterion with a score agrees at least 90% (--min-agreement 0.9). 3 of 6 baselines got no usable score and are not counted in the agreement: see No usable score above.\n');
    const c = parseCalibration(await readFile(join(cwd, 'c.json'), 'utf8'), 'c.json');
    expect(c.criteria[0]).toMatchObject({ baselines: 6, scored: 3, agreeing: 3, agreement: 1, notUsableAnswers: 3 });
    expect(c.spend.judgeCalls).toBe(6);

    // A judge that drops the connection after 2 answers: the fix names the CLI's flag, as a run's
    // terminal does, not the Action's judge-base-url input (calibrate has no Action mode).
    const dropping = await judgeServer((reply, nth, res) => (nth < 2 ? fair(reply, nth, res) : void res.socket?.destroy()));
    const dropped = await suite(dropping.url, 4, { judge: ', concurrency: 1' });
    const d = await cli(['calibrate', '--markdown', 'c.md'], dropped);
    expect(d.code).toBe(0);
    // The cause says their shared text already: not said again.
    expect(d.stdout).toContain(`  all 2: judge unreachable: the connection to 127.0.0.1:${new URL(dropping.url).port} was closed without an answer (UND_ERR_SOCKET)\n    "The reply is polite": .agent-replay/baselines/: f2.json, f3.json\n`);
    // It answered the first 2: its settings work, so the fix is the passing drop's, not a settings check.
    const fix = 'the judge answered other calls of this calibration, so --judge-url (judge.baseUrl), judge.model and the judge key work: it, or a gateway or proxy in front of it, closed these connections (a restart, or connections dropped under load): run it again, and lower judge.concurrency if it recurs';
    expect(d.stdout).toContain(`  fix: ${fix}\n`);
    expect(d.stdout).not.toContain('fix: check --judge-url');
    const md = await readFile(join(dropped, 'c.md'), 'utf8');
    expect(md).toContain(`Fix: ${escapeInline(fix)}`);
    expect(d.stdout + md).not.toContain('judge-base-url');
  });

  it('a judge down for 500 baselines: grouped under its cause, the shared text once and the files named compactly, not 500 lines', async () => {
    // Every request an HTTP 503, but the reply "rude 13", answered in prose: two causes.
    const judge = await judgeServer((reply, _nth, res) => {
      if (reply === 'rude 13') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: 'Seems fine to me.' } }] }));
        return;
      }
      res.writeHead(503, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'overloaded' } }));
    });
    const cwd = await suite(judge.url, 500, { judge: ', concurrency: 16' });
    const r = await cli(['calibrate', '--markdown', 'c.md'], cwd);
    expect(r.code).toBe(0);
    const first20 = [...Array.from({ length: 13 }, (_, i) => `f${i}.json`), ...Array.from({ length: 7 }, (_, i) => `f${i + 14}.json`)].join(', ');
    const section = r.stdout.split('\n\n').find((p) => p.startsWith('No usable score'));
    expect(section).toBe(
      [
        'No usable score (500): counted, never a score; left out of the agreement',
        '  499 of 500: judge unreachable: HTTP 503',
        '    each: HTTP 503: overloaded',
        `    "The reply is polite": .agent-replay/baselines/: ${first20} and 479 more`,
        '  1 of 500: the judge answered without a usable score',
        '    .agent-replay/baselines/f13.json  "The reply is polite": no usable score in output: "Seems fine to me."',
        `  fix: use a judge model that follows the prompt, or an endpoint with structured output (${docsUrl('judges.md', 'Structured output and its fallback')})`,
        "  fix: the judge's endpoint failed: see its status or log, and run it again",
      ].join('\n'),
    );
    const md = await readFile(join(cwd, 'c.md'), 'utf8');
    const mdSection = md.slice(md.indexOf('### No usable score (500)'), md.indexOf('\nFix: '));
    expect(mdSection).toBe(
      [
        '### No usable score (500)',
        '',
        '**499 of 500\\: judge unreachable\\: HTTP 503**<br>',
        'each\\: HTTP 503\\: overloaded',
        '',
        `- The reply is polite: \`.agent-replay/baselines/\`: ${first20.split(', ').map((f) => `\`${f}\``).join(', ')} and 479 more`,
        '',
        '**1 of 500\\: the judge answered without a usable score**',
        '',
        '- `.agent-replay/baselines/f13.json`: The reply is polite: no usable score in output\\: "Seems fine to me."',
        '',
      ].join('\n'),
    );
  });

  it('a judge down for some answers of a --repeat: the answers lost are said, though every baseline scored', async () => {
    // One call at a time, in order: each baseline's third answer is an HTTP 503.
    const judge = await judgeServer((reply, nth, res) => {
      if (nth % 3 !== 2) return fair(reply, nth, res);
      res.writeHead(503, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'overloaded' } }));
    });
    const cwd = await suite(judge.url, 2, { judge: ', concurrency: 1' });
    const r = await cli(['calibrate', '--repeat', '3', '--out', 'c.json', '--markdown', 'c.md'], cwd);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      [
        "Answers without a usable score (2 of 6 answers to 2 baselines that got a usable score from the others): counted, never a score; those baselines' median and spread are of the others",
        '  all 2: judge unreachable: HTTP 503',
        '    each: 1 of 3: HTTP 503: overloaded',
        '    "The reply is polite": .agent-replay/baselines/: f0.json, f1.json',
        "  fix: the judge's endpoint failed: see its status or log, and run it again",
        '',
      ].join('\n'),
    );
    const c = parseCalibration(await readFile(join(cwd, 'c.json'), 'utf8'), 'c.json');
    expect(c.criteria[0]).toMatchObject({ baselines: 2, scored: 2, agreeing: 2, notUsableAnswers: 2 });
    expect(c.criteria[0]?.items.map((i) => [i.scores, i.median])).toEqual([
      [[0.9, 0.9], 0.9],
      [[0.1, 0.1], 0.1],
    ]);
    const md = await readFile(join(cwd, 'c.md'), 'utf8');
    expect(md).toContain('### Answers without a usable score (2 of 6 answers to 2 baselines that got a usable score from the others)\n');
    expect(md).toContain('**all 2\\: judge unreachable\\: HTTP 503**<br>\neach\\: 1 of 3\\: HTTP 503\\: overloaded\n\n- The reply is polite: `.agent-replay/baselines/`: `f0.json`, `f1.json`\n');
  });

  it('a judge answering malformed JSON: each answer named, never a score, with the fix; none usable fails the minimum', async () => {
    const judge = await judgeServer((reply, nth, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(nth === 0 ? '{"choices": [ {"message": ' : JSON.stringify({ choices: [{ message: { role: 'assistant', content: '{"score": 0.9, "rationale": "fine"' } }] }));
    });
    const cwd = await suite(judge.url, 2, { judge: ', concurrency: 1' });
    const r = await cli(['calibrate', '--min-agreement', '0.8'], cwd);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('.agent-replay/baselines/f0.json  "The reply is polite": response is not JSON: "{"choices": [ {"message":"\n');
    expect(r.stdout).toContain('.agent-replay/baselines/f1.json  "The reply is polite": no usable score in output: "{"score": 0.9, "rationale": "fine""\n');
    expect(r.stdout).toMatch(/ {2}The reply is polite {2}2 +no score +- +-\n/);
    expect(r.stdout).toContain('No criterion got a usable score, so nothing was measured, and --min-agreement 0.8 (80%) cannot be shown to hold, so it fails (exit 1): see No usable score above.');
  });

  it("a panel with --repeat 3: each answer by its members' majority, the median and spread as worked out by hand", async () => {
    const panel = await startPanelJudge();
    judges.push(panel);
    const members = ['m0', 'm1', 'm2'].map((m) => `    - { model: ${m} }`).join('\n');
    // "scores 0.9,0.6,0.8": member k answers the k-th score. At 0.7, 2 of 3 pass (0.9, 0.8): pass.
    const cwd = await makeProject({
      config: `${agentConfig('http://127.0.0.1:9/chat')}judge:\n  baseUrl: "${panel.url}"\n  apiKey: k\n  retries: 0\n  panel:\n${members}\ncost: { capUsd: 5 }\n`,
      fixtures: { 'f.yml': 'fixtures:\n  - { label: a, message: a, assert: { judge: "scores 0.9,0.6,0.8", threshold: 0.7 } }\n  - { label: b, message: b, assert: { judge: "scores 0.9,0.6,0.8", threshold: 0.7 } }\n' },
      baselines: [baseline('a', 'reply a', null, 'pass'), baseline('b', 'reply b', null, 'fail')],
    });
    const r = await cli(['calibrate', '--repeat', '3', '--out', 'c.json'], cwd);
    expect(r.code).toBe(0);
    // Calls: 2 baselines x 3 repeats x 3 members (docs/judges.md, "Cost").
    expect(r.stdout.split('\n')[0]).toContain(': 18 judge calls, ≈ $0.09 estimated');
    // The progress line counts the same calls (each answer is one per member), not 6/6 beside 18.
    expect(r.stderr).toBe('progress: 18/18 judge calls\n');
    // Each answer's score is its members' median, 0.8; the baseline's, the median of 0.8, 0.8, 0.8;
    // spread max - min = 0; |0.8 - 0.7| = 0.1 <= 0.1: straddling. a agrees (pass), b does not: 1/2.
    const c = parseCalibration(await readFile(join(cwd, 'c.json'), 'utf8'), 'c.json');
    expect(c.criteria[0]).toMatchObject({ baselines: 2, scored: 2, agreeing: 1, agreement: 0.5, spread: 0, straddling: 2 });
    expect(c.criteria[0]?.items.map((i) => [i.label, i.median, i.judged, i.agrees])).toEqual([
      ['a', 0.8, 'pass', true],
      ['b', 0.8, 'pass', false],
    ]);
    expect(r.stdout).toContain('    .agent-replay/baselines/b.json  accepted fail, judged pass: median 0.8 (3 scores, 0.8 .. 0.8) against 0.7\n      judge: member 0 says 0.9\n');
    expect(c.spend.judgeCalls).toBe(18);
  });
});
