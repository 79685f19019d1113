// A suite whose configuration file is config.yaml (docs/configuration.md): every message that names
// the suite's file names config.yaml, the file it has, not a config.yml it does not have: the
// loader's words (an expression it does not read, the judge-provider input's warnings), the cost
// cap's refusal, in the terminal and the --markdown report, and calibrate's (in process: no child started).
import { readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OK_FIXTURE, F, brief, load } from './helpers.js';
import { agentConfig, baseline, cli, makeProject, readResults, scriptedAgent, serve, useCleanup } from '../cli/helpers.js';
import { planAcceptance } from '../../src/evaluate/acceptance.js';
import { causeOf } from '../../src/evaluate/causes.js';
import { runRecordSchema } from '../../src/record/schema.js';
import { renderComment, renderTerminal } from '../../src/report/index.js';
import { renderHtml } from '../../src/report/html.js';
import type { SuiteEdits } from '../../src/types.js';
import { baseline as stored, ctx, fixture, mixed, run as runOf, toolCall, turn } from '../report/fixtures.js';
import { startSpanSource } from '../../src/traces/index.js';
import { startReceiver } from '../../src/traces/receiver.js';
import { UserError } from '../../src/errors.js';
import { createHttpAgentClient } from '../../src/agent/index.js';
import { createRegexPool } from '../../src/assertions/index.js';
import { defaultConfig } from '../../src/config.js';
import { NO_BASELINES, replay } from '../../src/replay/index.js';
import { FACTS_ONLY_CAUSE } from '../../src/evaluate/meaning/index.js';
import type { ErrorKind, Fixture, PersonaScript } from '../../src/types.js';
import { replayOptions } from '../support/replay-options.js';
import { renderCalibrationMarkdown, renderCalibrationText } from '../../src/calibrate/render.js';
import { summarizeCalibration } from '../../src/calibrate/summary.js';
import { calibrationOf } from '../calibrate/calibration.js';
import { reportedError } from '../../src/evaluate/personas.js';

useCleanup();

const Y = '.agent-replay/config.yaml';

describe('a config.yaml suite is told of config.yaml', () => {
  it("the workflow's expression syntax in a value: config.yaml does not read it", async () => {
    const r = await load({ [`${F}/a.yml`]: OK_FIXTURE, [Y]: 'agent:\n  url: http://127.0.0.1:9/chat\n  headers:\n    Authorization: "Bearer ${{ secrets.AGENT_TOKEN }}"\n' });
    expect(brief(r.errors)).toEqual([
      `${Y}:4: agent.headers.Authorization holds \${{ secrets.AGENT_TOKEN }}, the workflow's expression syntax, which config.yaml does not read: it would be sent as written`,
    ]);
  });

  it("the judge-provider input's warnings name config.yaml's judge, address and key", async () => {
    const kept = await load({ [`${F}/a.yml`]: OK_FIXTURE, [Y]: 'judge:\n  provider: openai\n  baseUrl: https://gw.example/v1\n' }, { overrides: { judge: { provider: 'anthropic' } } });
    expect(brief(kept.warnings)).toEqual([
      `${Y}:3: judge.baseUrl https://gw.example is kept for anthropic, the judge-provider input's provider (config.yaml's judge is openai): the judge's calls go there in anthropic's API form, not to anthropic's own API`,
    ]);
    const env = { OPENAI_API_KEY: 'sk-openai-only-9' };
    const dropped = await load({ [`${F}/a.yml`]: OK_FIXTURE, [Y]: 'judge:\n  provider: openai\n  apiKey: ${OPENAI_API_KEY}\n' }, { env, overrides: { judge: { provider: 'anthropic' } } });
    expect(brief(dropped.warnings)).toEqual([
      `${Y}:3: judge.apiKey of config.yaml is openai's key: it is not sent to anthropic, the judge-provider input's provider (config.yaml's judge is openai), and anthropic will refuse the calls, so judge assertions are not evaluated`,
    ]);
    const elsewhere = await load({ [`${F}/a.yml`]: OK_FIXTURE, [Y]: 'judge:\n  apiKey: ${OPENAI_API_KEY}\n' }, { env, overrides: { judge: { provider: 'anthropic', baseUrl: 'http://127.0.0.1:9/v1' } } });
    expect(elsewhere.warnings.map((w) => w.message)).toEqual([
      "judge.apiKey of config.yaml is openai's key: it is not sent to http://127.0.0.1:9 (the judge-provider input's anthropic, at the judge-base-url input's address), so the judge's calls carry no key",
    ]);
    const keyless = await load({ [`${F}/a.yml`]: 'label: ok\nmessage: hi\nassert: { judge: polite }\n', [Y]: 'judge:\n  provider: openai\n' }, { overrides: { judge: { provider: 'anthropic' } } });
    expect(keyless.warnings.map((w) => w.message)).toEqual([
      "judge.apiKey is not set: anthropic (the judge-provider input; config.yaml's judge is openai) will refuse the calls, so judge assertions are not evaluated",
    ]);
  });

  it("the cost cap's refusal names config.yaml's cost.capUsd, in the terminal and the --markdown report", async () => {
    const cwd = await makeProject({ config: 'agent:\n  url: http://127.0.0.1:9/chat\ncost: { capUsd: 0.0001, agentTurnUsd: 0.01 }\n', fixtures: { 'a.yml': OK_FIXTURE } });
    await rename(join(cwd, '.agent-replay', 'config.yml'), join(cwd, '.agent-replay', 'config.yaml'));
    const run = await cli(['run', '--markdown', 'refused.md'], cwd);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('To run it anyway, rerun with --confirm-cost, or raise cost.capUsd in .agent-replay/config.yaml.\n');
    expect(await readFile(join(cwd, 'refused.md'), 'utf8')).toContain('Or raise the cap (`cost.capUsd` in `.agent-replay/config.yaml`).');
  });

  it("calibrate's refusal and its missing judge name config.yaml", async () => {
    const yaml = async (config: string): Promise<string> => {
      const cwd = await makeProject({ config, fixtures: { 'f.yml': 'label: a\nmessage: a\nassert: { judge: polite }\n' }, baselines: [baseline('a', 'reply a', null, 'pass')] });
      await rename(join(cwd, '.agent-replay', 'config.yml'), join(cwd, '.agent-replay', 'config.yaml'));
      return cwd;
    };
    const noJudge = await cli(['calibrate'], await yaml('agent:\n  url: http://127.0.0.1:9/chat\n'));
    expect(noJudge.code).toBe(2);
    expect(noJudge.stderr).toContain('error: .agent-replay/config.yaml: no judge is configured: calibrate re-judges the baselines with the judge a run uses\n  fix: add a judge section (provider, model, apiKey) to .agent-replay/config.yaml\n');
    const refused = await cli(['calibrate'], await yaml('agent:\n  url: http://127.0.0.1:9/chat\njudge: { baseUrl: "http://127.0.0.1:9/v1", apiKey: k }\ncost: { capUsd: 0.0001, judgeCallUsd: 0.005 }\n'));
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('To run it anyway, rerun with --confirm-cost, or raise cost.capUsd in .agent-replay/config.yaml.\n');
    // A judge section no judge could be made from (an injected maker, in process) names config.yaml too.
    const unmade = await cli(['calibrate'], await yaml('agent:\n  url: http://127.0.0.1:9/chat\njudge: { baseUrl: "http://127.0.0.1:9/v1", apiKey: k }\n'), {}, { engine: { makeJudge: () => null } });
    expect(unmade.code).toBe(2);
    expect(unmade.stderr).toContain('agent-replay: no judge could be made from .agent-replay/config.yaml\n');
  });

  it("probe --save --preset: the preset to set for run is set in config.yaml", async () => {
    const agent = await serve(() => ({ json: { id: 'c1', object: 'chat.completion', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'hello' } }] } }));
    const cwd = await makeProject({ config: `agent:\n  url: ${agent.url}\n`, fixtures: { 'a.yml': OK_FIXTURE } });
    await rename(join(cwd, '.agent-replay', 'config.yml'), join(cwd, '.agent-replay', 'config.yaml'));
    const r = await cli(['probe', 'hi', '--preset', 'openai-chat', '--save', 'greeting'], cwd);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('\nrun has no --preset: set agent.preset: openai-chat in config.yaml first.');
    // Its cause line for an agent that refuses the request: the key is set in agent.headers of config.yaml.
    const refusing = await serve(() => ({ status: 401, json: { error: 'missing key' } }));
    const cwd401 = await makeProject({ config: agentConfig(refusing.url), fixtures: { 'a.yml': OK_FIXTURE } });
    await rename(join(cwd401, '.agent-replay', 'config.yml'), join(cwd401, '.agent-replay', 'config.yaml'));
    expect((await cli(['probe', 'hi'], cwd401)).stdout).toContain('check the key or token it expects in agent.headers in config.yaml');
    // run's "gate failed" line, the same cause's fix in the CLI's words: config.yaml too, never config.yml.
    const run = await cli(['run'], cwd401);
    expect(run.stderr).toContain('gate failed: ');
    expect(run.stderr).toContain('check the key or token it expects in agent.headers in config.yaml');
    expect(run.stderr).not.toContain('config.yml');
  });

  it("a cause's fix names config.yaml: the terminal, the --markdown report, JUnit, results.json's configName and accept's refusal", async () => {
    const agent = await serve(scriptedAgent({ hi: 'hello there' }));
    const cwd = await makeProject({ config: agentConfig(agent.url), fixtures: { 'a.yml': 'label: polite\nmessage: hi\nassert: { judge: polite }\n' }, baselines: [baseline('polite', 'hello there', null, 'pass')] });
    await rename(join(cwd, '.agent-replay', 'config.yml'), join(cwd, '.agent-replay', 'config.yaml'));
    const run = await cli(['run', '--markdown', 'report.md', '--junit', 'junit.xml'], cwd);
    const fix = 'add a judge section to config.yaml (judge assertions and criteria need one)';
    expect(run.stdout, run.stderr).toContain(`no judge configured: ${fix}`);
    expect(await readFile(join(cwd, 'report.md'), 'utf8')).toContain('**Cause**: no judge configured\\: add a judge section to config.yaml \\(judge assertions and criteria need one\\)');
    expect(await readFile(join(cwd, 'junit.xml'), 'utf8')).toContain(`cause: no judge configured: ${fix}`);
    const record = await readResults(join(cwd, '.agent-replay', 'results', 'results.json'));
    expect(record.configName).toBe('config.yaml');
    // The reason stored beside the cause names it too: results.json keeps it, and the reports show it.
    expect(record.fixtures[0]?.detail).toBe('no judge configured (add a judge section to config.yaml)');
    expect(await readFile(join(cwd, 'report.md'), 'utf8')).not.toContain('config.yml');
    const refused = planAcceptance(record, new Map(), { only: null, acceptedAt: '2026-12-06T00:00:00.000Z' }).refused;
    expect(refused).toEqual([{ label: 'polite', reason: `not evaluated (no judge configured): ${fix}; then run it again` }]);
    // A record written without configName (config.yml, or an older one) reads, and its fixes name config.yml.
    const { configName: _name, ...older } = record;
    const read = runRecordSchema.parse(older);
    expect(causeOf(read.fixtures[0]!, null, false, false, undefined, read.configName)?.hint).toBe('add a judge section to config.yml (judge assertions and criteria need one)');
    expect(runRecordSchema.safeParse({ ...record, configName: 'settings.yml' }).success).toBe(false);
  });

  it("a cause's fix names the suite's file where the fix is written: a name it quotes is kept as it came, and every fix that sets a key names config.yaml", () => {
    // A record's error can say anything (a fork's run, read by report): a path it gives that holds " in config.yml" is
    // not quoted (a key the agent sent, src/words.ts isPlainPath), and one named config.yml is quoted as it came, not rewritten.
    const quoted = fixture('quoted', { errored: true, errorKind: 'missing_reply', error: 'message turn: response has no string at "reply" (found nothing; the response is an object (keys: notes); its text may be at "notes in config.yml")', reply: null, route: null, verdict: null, drift: null, detail: '' });
    const plain = fixture('plain', { errored: true, errorKind: 'missing_reply', error: 'message turn: response has no string at "reply" (found nothing; the response is an object (keys: config); its text may be at "config.yml")', reply: null, route: null, verdict: null, drift: null, detail: '' });
    const hintOf = (over: Parameters<typeof fixture>[1], file?: string): string | null | undefined => causeOf(fixture('x', over), null, false, false, undefined, file)?.hint;
    expect(causeOf(quoted, null, false, false, undefined, 'config.yaml')?.hint).toBe("the answer's text may be at a key the agent sent (see the item's error): check agent.preset, or agent.response.reply in config.yaml");
    expect(causeOf(quoted, null)?.hint).toBe("the answer's text may be at a key the agent sent (see the item's error): check agent.preset, or agent.response.reply in config.yml");
    expect(causeOf(plain, null, false, false, undefined, 'config.yaml')?.hint).toBe('the answer\'s text may be at "config.yml": set agent.response.reply: config.yml in config.yaml if that is the reply, or check agent.preset');
    // Each fix that sets a key: config.yaml's, and config.yml's as before when the record names none.
    const errored = (errorKind: ErrorKind, error: string): Parameters<typeof fixture>[1] => ({ errored: true, errorKind, error, reply: null, route: null, verdict: null, drift: null, detail: '' });
    const unevaluated = (detail: string): Parameters<typeof fixture>[1] => ({ verdict: 'not_evaluated', detail });
    const cases: [Parameters<typeof fixture>[1], string][] = [
      [errored('http', 'message turn: agent returned HTTP 400 after 1 attempt: {"error":"bad"}'), 'the agent rejected the request: check agent.preset or agent.request.body in config.yaml'],
      [errored('timeout', 'message turn: no answer from the agent within 30000 ms'), 'raise agent.timeoutMs in config.yaml if the agent is slow, or check that it is up'],
      [errored('missing_reply', 'message turn: response has no string at "reply" (found nothing; the response is an object (keys: id))'), 'check agent.preset, or agent.response.reply in config.yaml'],
      [unevaluated('regex /(a+)+$/ did not finish within its 100 ms budget'), 'simplify the pattern, or raise regex.timeoutMs in config.yaml'],
      [unevaluated('judge unreachable: no answer from the judge within 250 ms'), 'raise judge.timeoutMs in config.yaml if the judge is slow, or check judge-base-url (judge.baseUrl) and that it is up'],
      [unevaluated('simulator unreachable: no answer from the simulator within 250 ms'), 'raise judge.timeoutMs in config.yaml if the simulator is slow, or check simulator.baseUrl (else judge-base-url (judge.baseUrl)) and that it is up'],
    ];
    for (const [over, fix] of cases) {
      expect(hintOf(over, 'config.yaml')).toBe(fix);
      expect(hintOf(over)).toBe(fix.replace(' config.yaml', ' config.yml'));
    }
  });

  it("the suite-edited block names config.yaml: a repeat of none of its own, the inputs over its settings, what a workflow's steps rewrite", () => {
    const edits: SuiteEdits = {
      base: 'b'.repeat(40),
      fixtures: [{ label: 'hours', file: '.agent-replay/fixtures/suite.yml', change: 'repeat', before: null, after: 'repeat count 5, minPass 1' }],
      config: [{ file: Y, setting: 'judge.model', change: 'setting', before: '"gpt-4o-mini"', after: '"gpt-4o"' }],
      baselines: [],
      workflows: [{ file: '.github/workflows/agent-replay.yml', status: 'modified' }],
      unknown: null,
    };
    const record = runOf(mixed().fixtures, { suiteEdits: edits, configName: 'config.yaml' });
    const comment = renderComment(record, ctx);
    expect(comment).toContain("- `hours` in `.agent-replay/fixtures/suite.yml`: config.yaml's repeat (none of its own) is now `repeat count 5, minPass 1`");
    expect(comment).toContain('An input of the workflow step sets its setting over `config.yaml` when a step gives it (`judge-model` over `judge.model`)');
    expect(comment).toContain('rewrite the checked-out suite (fixtures, baselines, `config.yaml`)');
    const text = renderTerminal(record, { color: false });
    expect(text).toContain("    - hours in .agent-replay/fixtures/suite.yml: config.yaml's repeat (none of its own) is now repeat count 5, minPass 1\n");
    expect(text).toContain('rewrite the checked-out suite (fixtures, baselines, config.yaml)');
    expect(renderHtml(record)).toContain('<code>config.yaml</code>) or the agent');
    for (const surface of [comment, text]) expect(surface).not.toContain('config.yml');
  });

  it("traces: a default port in use is told to set another in config.yaml", async () => {
    const r = await load({ [`${F}/a.yml`]: OK_FIXTURE, [Y]: 'agent:\n  url: http://127.0.0.1:9/chat\ntraces:\n  receive: {}\n' });
    const traces = r.suite?.config.traces;
    expect(traces?.receive).toEqual({ port: 4318, configName: 'config.yaml' });
    // The default port taken: a receiver on a free one stands in for it, as the suite's receive reads it.
    const taken = await startReceiver({ port: 0, waitMs: 10 });
    try {
      const started = startSpanSource({ ...traces!, receive: { ...traces!.receive!, port: taken.port } });
      await expect(started).rejects.toThrow(UserError);
      await expect(started).rejects.toThrow(`the default traces port ${String(taken.port)} is in use on 127.0.0.1: another process (perhaps another OTLP receiver or collector) listens there; set another in config.yaml with traces: { receive: { port: N } }, or port: 0 for any free one`);
    } finally {
      await taken.close();
    }
  });

  it("the terminal's fix for a key in agent.headers names config.yaml, as the record's configName says", () => {
    const errored = fixture('order-status', { errored: true, errorKind: 'http', error: 'message turn: agent returned HTTP 401 after 1 attempt: {"error":"missing key"}', reply: null, route: null, verdict: null, drift: null, detail: '', baseline: stored('order-status', 'Stored.') });
    const endpoint = 'https://preview-42.shop-bot.example.com/api/chat';
    const text = (configName?: string): string => renderTerminal(runOf([errored], { agent: { host: 'preview-42.shop-bot.example.com', endpoint }, ...(configName === undefined ? {} : { configName }) }), { color: false });
    expect(text('config.yaml')).toContain(`HTTP 401 from ${endpoint}: the agent refused the request: check the key or token it expects in agent.headers in config.yaml`);
    expect(text()).toContain('check the key or token it expects in agent.headers in config.yml');
  });

  it("the reasons stored with no judge or meaning judge configured name config.yaml: a fixture's judge check, a script's criterion, a meaning not checked", async () => {
    const agent = await serve(scriptedAgent({ hi: 'Hello, how can I help you today?' }));
    const client = createHttpAgentClient({ ...defaultConfig().agent, url: agent.url, retries: 0 });
    const regex = createRegexPool({ size: 1, timeoutMs: 1000 });
    const fixtureOf: Fixture = { label: 'polite', message: 'hi', persona: null, assertion: { kind: 'judge', criterion: 'polite', threshold: 0.7 }, file: '.agent-replay/fixtures/f.yml', line: 1 };
    const script: PersonaScript = {
      label: 'script',
      file: '.agent-replay/personas/p.yml',
      line: 1,
      persona: null,
      opening: 'hi',
      followUps: [],
      maxTurns: 20,
      threshold: 0.7,
      mocks: [],
      expect: { conversations: [], terminal: null, toolCalled: [], toolNotCalled: [], criteria: ['polite'] },
    };
    // A baseline other words with the same facts: only a meaning judge could decide, and there is none.
    const baselines = { ...NO_BASELINES, fixtures: new Map([['polite', stored('polite', 'Hi, what can I do for you?')]]) };
    const reasons = async (configName?: string): Promise<string[]> => {
      const record = await replay({ fixtures: [fixtureOf], personas: [script], baselines }, { agent: client, regex, judge: null, meaning: { check: 'judge', threshold: 0.8, ask: null, ...(configName === undefined ? {} : { configName }) }, ...(configName === undefined ? {} : { configName }) }, replayOptions({ concurrency: 1 }));
      const [f] = record.fixtures;
      const criterion = record.personas[0]?.checks.find((c) => c.kind === 'criterion');
      return [f?.detail ?? '', criterion?.detail ?? '', f?.drift?.meaning?.detail ?? ''];
    };
    try {
      expect(await reasons('config.yaml')).toEqual([
        'no judge configured (add a judge section to config.yaml)',
        'no judge configured (add a judge section to config.yaml)',
        'no meaning judge configured (add a judge or a meaning section with a model to config.yaml)',
      ]);
      // A suite with config.yml, and a caller that does not say its file: config.yml, as before.
      expect(await reasons()).toEqual([
        'no judge configured (add a judge section to config.yml)',
        'no judge configured (add a judge section to config.yml)',
        'no meaning judge configured (add a judge or a meaning section with a model to config.yml)',
      ]);
    } finally {
      await Promise.all([client.close(), regex.close()]);
    }
  });

  it("meaning not checked, the fix said once for the items that share it names config.yaml: a judge to add (the facts alone, no judge), judge.timeoutMs to raise (a meaning judge not answering in time)", () => {
    const unchecked = (label: string): ReturnType<typeof fixture> =>
      fixture(label, { reply: `Now ${label}.`, drift: { reply: 'different', route: 'same', verdict: 'still_passing', meaning: { value: 'unchecked', by: null, detail: FACTS_ONLY_CAUSE } }, baseline: stored(label, `Before ${label}.`) });
    const items = [unchecked('a'), unchecked('b')];
    const fix = 'add a judge to config.yaml, which makes meaning.check judge';
    const record = runOf(items, { judge: { name: null }, configName: 'config.yaml' });
    expect(renderComment(record, ctx)).toContain(fix);
    expect(renderTerminal(record, { color: false })).toContain(fix);
    expect(renderTerminal(runOf(items, { judge: { name: null } }), { color: false })).toContain('add a judge to config.yml, which makes meaning.check judge');
    // A meaning judge that did not answer in time: its fix raises judge.timeoutMs in config.yaml.
    const slow = (label: string): ReturnType<typeof fixture> =>
      fixture(label, { reply: `Now ${label}.`, drift: { reply: 'different', route: 'same', verdict: 'still_passing', meaning: { value: 'unchecked', by: null, detail: 'meaning judge unreachable: no answer from the meaning judge within 250 ms' } }, baseline: stored(label, `Before ${label}.`) });
    const timedOut = runOf([slow('a'), slow('b')], { configName: 'config.yaml' });
    expect(renderTerminal(timedOut, { color: false })).toContain('raise judge.timeoutMs in config.yaml if the meaning judge is slow');
    expect(renderComment(timedOut, ctx)).toContain('raise judge.timeoutMs in config.yaml if the meaning judge is slow');
  });

  it("calibrate's fix for a judge that did not answer in time raises judge.timeoutMs in config.yaml, on the terminal and in its markdown", () => {
    const target = { criterion: 'polite', threshold: 0.7, kind: 'fixture' as const, label: 'a', file: 'f.yml', line: 1, baselineFile: '.agent-replay/baselines/a.json', accepted: 'pass' as const, acceptedFrom: 'baseline_verdict' as const, material: { kind: 'reply' as const, reply: 'a' } };
    const figures = summarizeCalibration({ targets: [target], skipped: [], withoutBaseline: [] }, [[{ ok: false, reason: 'no answer from the judge within 250 ms' }]], null);
    const c = calibrationOf(figures, 1, null);
    const fix = 'raise judge.timeoutMs in config.yaml if the judge is slow, or check --judge-url (judge.baseUrl) and that it is up';
    expect(renderCalibrationText(c, { configName: 'config.yaml' })).toContain(`  fix: ${fix}\n`);
    expect(renderCalibrationMarkdown(c, { configName: 'config.yaml' })).toContain('Fix: raise judge.timeoutMs in config.yaml if the judge is slow');
    expect(renderCalibrationText(c)).toContain('  fix: raise judge.timeoutMs in config.yml if the judge is slow');
  });

  it("a script's tool call no mock answered, an error by config.yaml's personas.unmockedTools: the error names config.yaml", () => {
    const turns = [turn(1, 'refund?', 'Done.', null, { toolCalls: [toolCall('refund', { order: 1 }, { ok: true }, false)] })];
    const words = (file?: string): string => reportedError(turns, { mocks: [] }, 'error', file)?.error ?? '';
    expect(words('config.yaml')).toContain('; config.yaml sets personas.unmockedTools: error: declare a mock for refund in mocks');
    expect(words()).toContain('; config.yml sets personas.unmockedTools: error:');
  });
});
