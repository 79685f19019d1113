// `agent-replay demo`: the embedded agent and demo judge, the example suite, end to end; once in
// process and once as the bundled CLI in a child process.

import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { findDemoSuite } from '../../src/cli/demo.js';
import { runRecordSchema } from '../../src/record/schema.js';
import { mayNeedPool, poolPatternCount } from '../../src/assertions/regex-inline.js';
import { loadSuite } from '../../src/suite/index.js';
import { DRIFT_VERDICTS, type RunRecord } from '../../src/types.js';

const ROOT = resolve(import.meta.dirname, '../..');
const DIST_CLI = join(ROOT, 'dist', 'cli.js');

const dirs: string[] = [];
afterEach(async () => {
  while (dirs.length > 0) await rm(dirs.pop() as string, { recursive: true, force: true });
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'agent-replay-demo-test-'));
  dirs.push(dir);
  return dir;
}

async function readRecord(path: string): Promise<RunRecord> {
  return runRecordSchema.parse(JSON.parse(await readFile(path, 'utf8')));
}

/** What the demo is for: every verdict and drift value, on every run. */
function expectEverything(record: RunRecord): void {
  const f = new Map(record.fixtures.map((x) => [x.label, x]));
  const verdicts = new Set(record.fixtures.map((x) => x.verdict));
  expect(verdicts).toEqual(new Set(['pass', 'fail', 'not_evaluated', null]));

  const probe = record.fixtures.find((x) => x.assertion === null);
  expect(probe?.verdict).toBe('pass');

  const notEvaluated = record.fixtures.filter((x) => x.verdict === 'not_evaluated').map((x) => x.detail);
  expect(notEvaluated.some((d) => /does not compile/.test(d))).toBe(true);
  expect(notEvaluated.some((d) => /did not finish within its \d+ ms budget/.test(d))).toBe(true);

  const errored = record.fixtures.filter((x) => x.errored);
  expect(errored.length).toBeGreaterThan(0);
  for (const x of errored) expect(x).toMatchObject({ verdict: null, drift: null, reply: null });

  const drift = new Set(record.fixtures.map((x) => x.drift?.verdict).filter((v) => v !== undefined));
  expect([...drift].sort()).toEqual([...DRIFT_VERDICTS].sort());

  expect(record.judge.name).toMatch(/demo/);
  // Its baseline keeps the judge's result and the reply did not change: reused, no judge call.
  expect(f.get('broken-parcel')).toMatchObject({ verdict: 'pass', score: 0.9, threshold: 0.7, judgeReused: { commit: '4f1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c' } });
  expect(f.get('broken-parcel')?.detail).toContain('reused from 4f1c2d3');
  expect(record.spend?.judgeReused).toBe(1);
  expect(record.estimate.aboveCap).toBe(false);
  expectPersonas(record);
  // The simulated user: its accepted messages replayed word for word, no simulator call.
  const simulated = record.personas.find((x) => x.label === 'refund-simulated');
  expect(simulated).toMatchObject({ verdict: 'pass', drift: { transcript: 'same', route: 'same', verdict: 'still_passing' } });
  expect(simulated?.simulation).toMatchObject({ liveFromTurn: null, endedBy: 'agent', calls: 0, fault: null });
  expect(simulated?.turns.map((t) => t.source ?? null)).toEqual([null, 'baseline', 'baseline', 'baseline']);
  expect(record.spend).toMatchObject({ simulatorCalls: 0, baselineTurns: 3 });
  expectMeanings(record);
}

/** Every meaning value (docs/meaning.md), from an agent that words some replies differently on every call. */
function expectMeanings(record: RunRecord): void {
  const meaning = (label: string) => record.fixtures.find((x) => x.label === label)?.drift?.meaning;
  expect(meaning('opening-hours')).toEqual({ value: 'formatting', by: 'normalize', detail: null });
  expect(meaning('refund-policy')).toMatchObject({ value: 'reworded', by: 'judge', score: 0.9 });
  expect(meaning('warranty-length')).toMatchObject({ value: 'changed', by: 'facts', detail: 'numbers 2 → none' });
  expect(meaning('hiking-boots')).toMatchObject({ value: 'changed', by: 'judge', detail: 'says "three" where the baseline said "two"' });
  expect(meaning('favourite-product')).toMatchObject({ value: 'unchecked', by: null });
  expect(meaning('favourite-product')?.detail).toMatch(/^meaning judge gave no usable answer/);
  // A repeated item whose attempts each say one of its baseline's variants: no meaning call for it.
  const delivery = record.fixtures.find((x) => x.label === 'delivery-time');
  expect(delivery?.drift?.meaning).toEqual({ value: 'variant', by: 'variant', detail: null });
  expect(new Set(delivery?.attempts?.map((a) => a.reply)).size).toBe(2);
  expect(delivery?.attempts?.map((a) => a.meaning?.value ?? null)).toEqual([null, 'variant', null]);
  // refund-policy, hiking-boots and favourite-product asked the demo judge; the rest decided without it.
  expect(record.spend).toMatchObject({ meaningCalls: 3, meaningReused: 0 });
}

/** The example persona scripts: each verdict for the reason its comment in the YAML gives. */
function expectPersonas(record: RunRecord): void {
  const p = new Map(record.personas.map((x) => [x.label, x]));
  const check = (label: string, kind: string, expected?: unknown) =>
    p.get(label)?.checks.find((c) => c.kind === kind && (expected === undefined || JSON.stringify(c.expected).includes(JSON.stringify(expected))));

  const pass = p.get('refund-broken-item');
  expect(pass).toMatchObject({ verdict: 'pass', outcome: 'finish', unsent: ['Thanks, bye'], drift: { transcript: 'same', route: 'same', verdict: 'still_passing' } });
  expect(pass?.checks.map((c) => c.status)).toEqual(pass?.checks.map(() => 'pass'));
  expect(pass?.turns.map((t) => t.toolCalls?.map((c) => `${c.tool}:${c.mocked}`))).toEqual([[], [], ['find_order:true'], ['issue_refund:true']]);
  expect(check('refund-broken-item', 'toolCalled')).toMatchObject({ status: 'pass', turn: 2 });

  expect(p.get('mid-price-handoff')).toMatchObject({ verdict: 'fail', drift: { transcript: 'different', route: 'different', verdict: 'newly_failing' } });
  expect(check('mid-price-handoff', 'conversations')).toMatchObject({ status: 'fail' });
  expect(check('mid-price-handoff', 'conversations')?.detail).toMatch(/handoff/);

  expect(p.get('final-sale-no-refund')).toMatchObject({ verdict: 'fail', baseline: null, drift: { transcript: null, route: null, verdict: 'no_baseline' } });
  expect(check('final-sale-no-refund', 'toolNotCalled')).toMatchObject({ status: 'fail', turn: 3 });
  expect(check('final-sale-no-refund', 'toolCalled')).toMatchObject({ status: 'pass' });

  expect(p.get('broken-item-replacement')).toMatchObject({ verdict: 'fail', drift: { transcript: 'same', verdict: 'still_failing' } });
  expect(check('broken-item-replacement', 'criterion', 'Stayed empathetic')).toMatchObject({ status: 'pass', score: 0.9 });
  expect(check('broken-item-replacement', 'criterion', 'Offered a replacement before refunding')).toMatchObject({ status: 'fail', score: 0.2 });

  const errored = p.get('refund-unmocked-tool');
  expect(errored).toMatchObject({ errored: true, verdict: null, drift: null, errorKind: 'unmocked_tool' });
  expect(errored?.checks.filter((c) => c.kind !== 'criterion').map((c) => c.status)).toEqual(['pass', 'pass']);
  expect(errored?.turns.at(-1)?.toolCalls).toMatchObject([{ tool: 'issue_refund', mocked: false }]);

  expect(p.get('expensive-item-handoff')).toMatchObject({ verdict: 'not_evaluated', outcome: 'handoff', drift: { transcript: 'same', verdict: 'not_evaluated' } });
  expect(p.get('refund-then-opening-hours')).toMatchObject({ verdict: 'pass', outcome: 'switch', drift: { transcript: 'different', verdict: 'newly_passing' } });

  // Every persona verdict and all six drift values among the scripts too.
  expect(new Set(record.personas.map((x) => x.verdict))).toEqual(new Set(['pass', 'fail', 'not_evaluated', null]));
  expect([...new Set(record.personas.map((x) => x.drift?.verdict).filter((v) => v !== undefined))].sort()).toEqual([...DRIFT_VERDICTS].sort());
}

/**
 * docs/meaning.md, "A worked example: npm start", quotes the demo's terminal and report.md: each
 * line it quotes is a line the demo prints (`…` marks lines left out; the agent's port varies).
 */
async function expectMeaningExcerpt(stdout: string, reportMd: string): Promise<void> {
  const doc = await readFile(join(ROOT, 'docs', 'meaning.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## A worked example: npm start'), doc.indexOf('## The meaning of one reply, as recorded'));
  const blocks = [...section.matchAll(/```(text|markdown)\n([\s\S]*?)```/g)];
  expect(blocks.map((b) => b[1])).toEqual(['text', 'markdown', 'markdown']);
  const printed = stdout.split('\n').map((l) => l.replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:PORT'));
  const written = reportMd.split('\n');
  for (const [, kind, body] of blocks) {
    for (const line of body!.split('\n').filter((l) => l !== '' && l !== '…')) {
      const where = kind === 'text' ? printed : written;
      expect(where, `docs/meaning.md quotes a line the demo ${kind === 'text' ? 'prints' : 'writes to report.md'} no longer: ${line}`).toContain(line.replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:PORT'));
    }
  }
}

describe('demo', () => {
  it('finds the example suite from the source tree', () => {
    expect(findDemoSuite(join(ROOT, 'src', 'demo'))).toBe(join(ROOT, 'examples', 'demo', '.agent-replay'));
    expect(() => findDemoSuite(tmpdir())).toThrow(/demo suite .* is missing/);
  });

  // The demo runs its regexes under its config's 100 ms budget, and the runs below assert their
  // verdicts: those patterns are matched on the main thread, with no budget (docs/architecture.md,
  // "The regex time budget"). The pool, whose budget a loaded machine could run out of, gets the
  // runaway alone: ^(a+)+$ against 40 a's and a "!" (src/demo/agent.ts) takes 2^40 steps, past any
  // budget. A pattern added to the demo that may need the pool would make its verdict depend on the
  // machine's speed.
  it("gives the regex pool, and its 100 ms budget, only the runaway pattern, which no budget lets finish", async () => {
    const { suite, errors } = await loadSuite({ dir: join(ROOT, 'examples', 'demo', '.agent-replay'), env: {} });
    expect(errors).toEqual([]);
    const pooled = (suite?.fixtures ?? []).filter((f) => {
      const checks = f.assertion === null ? [] : f.assertion.kind === 'all' ? f.assertion.assertions : [f.assertion];
      return checks.some((a) => a.kind === 'regex' && mayNeedPool(a.pattern, a.flags));
    });
    expect(pooled.map((f) => f.label)).toEqual(['runaway-pattern']);
    expect(poolPatternCount([], suite?.personas ?? [])).toBe(0);
  });

  it('runs in process: exit 0, every verdict and drift value in results.json, report files written', async () => {
    const out = await tempDir();
    let stdout = '';
    let stderr = '';
    const code = await main(['demo', '--out', out], {
      stdout: (t) => void (stdout += t),
      stderr: (t) => void (stderr += t),
      isTTY: false,
      color: false,
      env: {},
      cwd: out,
    });
    expect(stderr).not.toMatch(/^error/m);
    expect(code).toBe(0);
    expectEverything(await readRecord(join(out, 'results.json')));
    expect(existsSync(join(out, 'report.md'))).toBe(true);
    expect(existsSync(join(out, 'junit.xml'))).toBe(true);
    expect(existsSync(join(out, 'report.html'))).toBe(true);
    expect(stdout).toContain('demo judge');
    // Points at the suite's files where they are, as installed (npx has no examples/ in the user's folder).
    // The last lines say plainly what the default gate would do: one line per condition, no brackets in brackets.
    expect(stdout).toMatch(
      /\nThe demo shows every verdict and drift value on purpose, for fixtures and persona scripts alike; the comments in its files say why: \/\S+\/examples\/demo\/\.agent-replay\nWith the default gate, --fail-on newly_failing,unverified, a real run would exit 1:\n {2}2 newly failing: warranty-length, mid-price-handoff\n {2}not verified: 3 errored, 4 not evaluated\nThe demo itself exits 0\.\n$/,
    );
    // The persona scripts are shown in their sections with their failed checks.
    expect(stdout.match(/^ +[✗~+○!] 🎭 /gm)?.length).toBeGreaterThan(0);
    expect(stdout).toMatch(/🎭 script mid-price-handoff · fail · newly failing[^\n]*\n[^\n]*\n\s+✗ conversations \(fail\): visited: welcome, refunds; missing: handoff/);
    expect(stdout).toContain('tool not called issue_refund');
    expect(stdout).toMatch(/^Reworded \(3\)\n {2}≈ refund-policy · reworded \(judge 0\.90\) · \S+refund-policy\.yml:3\n {2}≈ opening-hours · reworded \(formatting\) · /m);
    // Started from another folder, the files read from the example project's root, as from a
    // repository's: the same in the items, the "by file" agreement and results.json.
    expect(stdout).toMatch(/^ {2}by file: \.agent-replay\/fixtures\/greetings\.yml 100% · \.agent-replay\/fixtures\/not-evaluated\.yml n\/a · /m);
    expect(stdout).toContain('· .agent-replay/fixtures/warranty.yml:2\n');
    expect(stdout).not.toMatch(/\.\.\/|examples\/demo\/\.agent-replay\/(fixtures|personas)/);
    const files = await readRecord(join(out, 'results.json')).then((r) => [...r.fixtures, ...(r.personas ?? [])].map((i) => i.file));
    expect(files.every((f) => /^\.agent-replay\/(fixtures|personas)\/[\w-]+\.yml$/.test(f)), files.join(', ')).toBe(true);
    expect(stdout).toContain('≈ delivery-time · reworded (known variant) · ');
    expect(stdout).toContain('favourite-product · pass (probe) · still passing · reply changed · meaning not checked: meaning judge gave no usable answer');
    await expectMeaningExcerpt(stdout, await readFile(join(out, 'report.md'), 'utf8'));
  });

  it('runs as the bundled CLI (node dist/cli.js demo) in a child process', async (ctx) => {
    if (!existsSync(DIST_CLI)) {
      ctx.skip('dist/cli.js is missing: run `npm run package` to bundle the CLI');
      return;
    }
    const out = await tempDir();
    const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => {
      const child = execFile(process.execPath, [DIST_CLI, 'demo', '--out', out], { cwd: out, env: { PATH: process.env.PATH ?? '' }, timeout: 15_000 }, (_err, stdout, stderr) =>
        done({ code: child.exitCode, stdout, stderr }),
      );
    });
    expect(result.stderr).not.toMatch(/^error/m);
    expect(result.code).toBe(0);
    expectEverything(await readRecord(join(out, 'results.json')));
  });
});
