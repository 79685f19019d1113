import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { envInputGetter, inputSecrets, parseHeaders, readInputs } from '../../src/action/inputs.js';
import { TOOL } from '../../src/version.js';
import { OVERRIDES_SOURCE, overridesFrom } from '../../src/action/publish.js';
import { runCheck } from '../../src/engine.js';
import { formatIssue } from '../../src/suite/index.js';
import { repo } from '../suite/helpers.js';
import { quotedAndSaid } from '../support/troubleshooting.js';

interface ActionYml {
  name: string;
  description: string;
  branding: { icon: string; color: string };
  runs: { using: string; main: string };
  inputs: Record<string, { description: string; default?: string }>;
  outputs: Record<string, { description: string }>;
}
const action = parse(readFileSync('action.yml', 'utf8')) as ActionYml;
const page = readFileSync('docs/action.md', 'utf8');
const REGENERATE = 'docs/action.md is out of date with action.yml; fix: node scripts/action-doc-tables.mjs';

function pageTable(section: 'inputs' | 'outputs'): string[][] {
  const start = page.indexOf(`<!-- ${section}:start -->`);
  const end = page.indexOf(`<!-- ${section}:end -->`);
  expect(start, `docs/action.md has <!-- ${section}:start -->`).toBeGreaterThan(0);
  return page
    .slice(start, end)
    .split('\n')
    .filter((l) => l.startsWith('| ') && !l.startsWith('| ---') && !/^\| (input|output) \|/.test(l))
    .map((l) =>
      l
        .slice(2, -2)
        .split(/(?<!\\) \| /)
        .map((c) => c.replace(/\\\|/g, '|').trim()),
    );
}

describe('action.yml and docs/action.md agree', () => {
  it('runs on node24 from the bundled dist/index.js', () => {
    expect(action.runs).toEqual({ using: 'node24', main: 'dist/index.js' });
  });
  it('lists every input with its default and description, in order', () => {
    const rows = pageTable('inputs');
    const expected = Object.entries(action.inputs).map(([name, v]) => [`\`${name}\``, v.default !== undefined ? `\`${v.default}\`` : '', v.description]);
    expect(rows, REGENERATE).toEqual(expected);
  });
  it('lists every output with its description, in order', () => {
    const rows = pageTable('outputs');
    expect(rows, REGENERATE).toEqual(Object.entries(action.outputs).map(([name, v]) => [`\`${name}\``, v.description]));
  });
  it('repeat and repeat-max say that every shard of a matrix needs the same value: report mode refuses a merge otherwise', () => {
    for (const name of ['repeat', 'repeat-max']) expect(action.inputs[name]?.description, name).toContain("Shards of a matrix need the same value in every shard's job");
    expect(action.inputs.repeat?.description).toContain('report mode refuses to merge shards run with different repeats (https://github.com/agent-replay/agent-replay/blob/v0.1.0/docs/action.md#shards-one-suite-over-a-ci-matrix)');
  });
  it('readInputs reads exactly the inputs action.yml declares', () => {
    const seen = new Set<string>();
    readInputs((name) => {
      seen.add(name);
      return action.inputs[name]?.default?.startsWith('${{') ? 'tok' : (action.inputs[name]?.default ?? '');
    });
    expect([...seen].sort()).toEqual(Object.keys(action.inputs).sort());
  });
  it('has what the Marketplace needs: name, a description under 125 characters, branding with an allowed color', () => {
    expect(action.name).toBe('agent-replay');
    expect(action.description.length).toBeLessThanOrEqual(125);
    // GitHub's allowed branding colors; the icon is one of Feather's (v4.28) names
    expect(['white', 'black', 'yellow', 'blue', 'green', 'orange', 'red', 'purple', 'gray-dark']).toContain(action.branding.color);
    expect(action.branding.icon).toMatch(/^[a-z][a-z0-9-]*$/);
  });
  it('the tool version equals package.json and package-lock.json (docs/contributing.md, "Releasing")', () => {
    expect(TOOL.version).toBe((JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version);
    const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as { version: string; packages: Record<string, { version?: string }> };
    expect([lock.version, lock.packages['']?.version]).toEqual([TOOL.version, TOOL.version]);
  });
});

/** The message `fn` throws ('' when it does not). */
function thrownBy(fn: () => unknown): string {
  try {
    fn();
    return '';
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

describe('readInputs', () => {
  const env = (vars: Record<string, string>) => envInputGetter(Object.fromEntries(Object.entries(vars).map(([k, v]) => [`INPUT_${k.toUpperCase()}`, v])));
  it('refuses a path written for Windows (a drive letter, a network share) on this runner, with the fix', () => {
    expect(() => readInputs(env({ dir: 'C:\\repo\\.agent-replay' }))).toThrow(
      "input dir 'C:\\repo\\.agent-replay' is a Windows path (drive C:), and this system is not Windows: here it is a name in the working folder, not drive C:. Give the path as this system writes it: relative to the working folder (dir: .agent-replay), or absolute (/mnt/c/repo/.agent-replay under WSL)",
    );
    expect(() => readInputs(env({ 'results-path': '\\\\server\\share\\r.json' }))).toThrow(/^input results-path '.+' is a Windows network path \(UNC\)/);
    expect(() => readInputs(env({ mode: 'report', results: 'shards\nD:/a/results.json' }))).toThrow(/^input results D:\/a\/results\.json is a Windows path \(drive D:\)/);
    expect(readInputs(env({ dir: 'bots/shop' })).dir).toBe('bots/shop');
  });

  it('gives the defaults when nothing is set', () => {
    const i = readInputs(env({}));
    expect(i).toMatchObject({ mode: 'check', dir: '.agent-replay', comment: true, failOn: ['newly_failing', 'unverified'], confirmCost: false, costCap: null, concurrency: null, acceptLabel: 'accept-baseline', commentKey: null });
    expect(Object.isFrozen(i)).toBe(true);
    // The input's default in action.yml is the same gate.
    expect(readInputs(env({ 'fail-on': 'newly_failing, unverified' })).failOn).toEqual(['newly_failing', 'unverified']);
  });
  it('rejects bad enum values quoting the value and the allowed set', () => {
    expect(() => readInputs(env({ mode: 'deploy' }))).toThrow('input mode: "deploy" is not allowed; use one of: check, accept, report');
    quotedAndSaid(thrownBy(() => readInputs(env({ mode: 'deploy' }))), 'input <name>: "<value>" is not allowed; use one of: ...');
    expect(() => readInputs(env({ 'judge-provider': 'gemini' }))).toThrow('use one of: openai, anthropic');
    // Another case, or a misspelling, is refused as written (values are lower case), naming the spelling meant as fail-on does.
    expect(() => readInputs(env({ mode: 'Check' }))).toThrow('input mode: "Check" is not allowed: did you mean "check"? Use one of: check, accept, report');
    // A value written over two lines (a block scalar) is quoted on the annotation's one line, an escape sequence shown.
    expect(() => readInputs(env({ mode: 'check\nreport' }))).toThrow('input mode: "check ⏎ report" is not allowed; use one of: check, accept, report');
    expect(() => readInputs(env({ 'agent-path': '/api\nchat\u001b[2J' }))).toThrow(String.raw`input agent-path: "/api ⏎ chat\u001b[2J" is not a path;`);
    expect(() => readInputs(env({ comment: 'yes\r\nplease' }))).toThrow('input comment: "yes ⏎ please" is not a boolean');
    expect(() => readInputs(env({ 'judge-provider': 'OpenAI' }))).toThrow('input judge-provider: "OpenAI" is not allowed: did you mean "openai"? Use one of: openai, anthropic');
    expect(() => readInputs(env({ mode: 'acept' }))).toThrow('input mode: "acept" is not allowed: did you mean "accept"? Use one of: check, accept, report');
    expect(() => readInputs(env({ 'fail-on': 'newly_failing,slow' }))).toThrow(/"slow" is not a known condition: did you mean "slower"\? Allowed: newly_failing/);
    // Lower case, as documented; another case is refused as written, naming the spelling meant.
    expect(() => readInputs(env({ 'fail-on': 'Newly-Failing' }))).toThrow(/^input fail-on: "Newly-Failing" is not a known condition: did you mean "newly_failing"\? Allowed: newly_failing/);
    // none never fails: beside a condition it would say both (docs/semantics.md, "The gate").
    expect(() => readInputs(env({ 'fail-on': 'none, failed' }))).toThrow(
      'input fail-on: "none" (no condition) cannot be combined with "failed"; give none alone, or the conditions without none (allowed: newly_failing, unverified, failed,',
    );
    expect(readInputs(env({ 'fail-on': 'none' })).failOn).toEqual(['none']);
    expect(() => readInputs(env({ comment: 'maybe' }))).toThrow('input comment: "maybe" is not a boolean; use true or false');
    expect(() => readInputs(env({ concurrency: '0' }))).toThrow('input concurrency: "0" is not a whole number from 1 to 256');
    expect(() => readInputs(env({ concurrency: '1000000000' }))).toThrow('input concurrency: "1000000000" is not a whole number from 1 to 256');
    expect(readInputs(env({ concurrency: '256' })).concurrency).toBe(256);
    expect(() => readInputs(env({ 'cost-cap': '-1' }))).toThrow('input cost-cap: "-1" is not a non-negative number');
  });
  it('agent-path gets its leading slash; wait-for-agent is whole seconds from 0 to 600', () => {
    expect(readInputs(env({})).agentPath).toBeNull();
    expect(readInputs(env({ 'agent-path': 'api/chat' })).agentPath).toBe('/api/chat');
    expect(readInputs(env({ 'agent-path': '/api/chat' })).agentPath).toBe('/api/chat');
    expect(() => readInputs(env({ 'agent-path': 'https://x.example/api' }))).toThrow('input agent-path: "https://x.example/api" is not a path');
    expect(readInputs(env({})).waitForAgent).toBeNull();
    expect(readInputs(env({ 'wait-for-agent': '0' })).waitForAgent).toBe(0);
    expect(readInputs(env({ 'wait-for-agent': '600' })).waitForAgent).toBe(600);
    for (const bad of ['601', '-1', '2.5', 'soon', '6e1']) expect(() => readInputs(env({ 'wait-for-agent': bad }))).toThrow(`input wait-for-agent: "${bad}" is not a whole number of seconds from 0 to 600`);
  });
  it('repeat and repeat-max: whole numbers from 1 to 20, check mode only, repeat-max not below repeat; they override config.yml as --repeat and --repeat-max do', () => {
    expect(readInputs(env({}))).toMatchObject({ repeat: null, repeatMax: null });
    expect(readInputs(env({ repeat: '5', 'repeat-max': '10' }))).toMatchObject({ repeat: 5, repeatMax: 10 });
    // Digits only: "1e1" is not read as 10, nor "0x5" as 5.
    for (const bad of ['0', '21', '2.5', 'many', '1e1', '0x5']) {
      expect(() => readInputs(env({ repeat: bad }))).toThrow(`input repeat: "${bad}" is not a whole number from 1 to 20`);
      expect(() => readInputs(env({ 'repeat-max': bad }))).toThrow(`input repeat-max: "${bad}" is not a whole number from 1 to 20`);
    }
    expect(() => readInputs(env({ repeat: '5', 'repeat-max': '3' }))).toThrow('input repeat-max: 3 is below repeat 5');
    expect(() => readInputs(env({ mode: 'report', repeat: '3' }))).toThrow('input repeat: only check mode replays');
    expect(overridesFrom(readInputs(env({ repeat: '5', 'repeat-max': '10' })))).toMatchObject({ repeat: 5, repeatMax: 10 });
    expect(overridesFrom(readInputs(env({})))).not.toHaveProperty('repeat');
  });
  it('judge-base-url and judge-api-key override config.yml\'s judge address and key (the address a fork\'s config.yml may not choose: test/engine/untrusted-panel.test.ts)', () => {
    expect(overridesFrom(readInputs(env({ 'judge-base-url': 'https://judge.example/v1', 'judge-api-key': 'sk-1' })))).toMatchObject({ judge: { baseUrl: 'https://judge.example/v1', apiKey: 'sk-1' } });
    expect(overridesFrom(readInputs(env({})))).not.toHaveProperty('judge');
  });
  it('an input the suite refuses (judge-base-url without its scheme) is said to be in the Action\'s inputs, not the CLI\'s command-line options; nothing is sent', async () => {
    const cwd = await repo({ '.agent-replay/fixtures/a.yml': 'label: a\nmessage: hi\n', '.agent-replay/config.yml': 'agent:\n  url: http://127.0.0.1:9/chat\n' });
    const overrides = overridesFrom(readInputs(env({ 'judge-base-url': 'judge.example/v1' })));
    const result = await runCheck({ dir: '.agent-replay', cwd, env: {}, overrides, overridesSource: OVERRIDES_SOURCE, confirmCost: false, failOn: [], commit: null });
    expect(result.kind).toBe('config_errors');
    quotedAndSaid(result.kind === 'config_errors' ? result.errors.map(formatIssue).join('\n') : '', 'the Action\'s inputs: judge base URL "judge.example/v1" has no scheme (http:// or https://): ...');
    expect(result.kind === 'config_errors' ? result.errors.map(formatIssue) : []).toEqual([
      'the Action\'s inputs: judge base URL "judge.example/v1" has no scheme (http:// or https://): write https://judge.example/v1\n  fix: give the API base address, with its scheme: https://judge.example/v1',
    ]);
  });
  it('shard: i/n for check mode only; timings only with shard; allow-incomplete a boolean', () => {
    expect(readInputs(env({})).shard).toBeNull();
    expect(readInputs(env({ shard: '2/4', timings: 'prev/results.json' }))).toMatchObject({ shard: { index: 2, total: 4 }, timings: 'prev/results.json', allowIncomplete: false });
    for (const bad of ['0/4', '5/4', '2', '1/257', '${{ matrix.shard }}/4']) {
      expect(() => readInputs(env({ shard: bad }))).toThrow(`input shard must be i/n with whole numbers 1 <= i <= n <= 256 (e.g. 2/4), got "${bad}"`);
      quotedAndSaid(thrownBy(() => readInputs(env({ shard: bad }))), 'input shard must be i/n with whole numbers 1 <= i <= n <= 256 (e.g. 2/4), got "<value>"');
    }
    expect(() => readInputs(env({ shard: '1/2', mode: 'report' }))).toThrow('input shard: only check mode replays a shard; mode report reads recorded results');
    expect(() => readInputs(env({ timings: 'r.json' }))).toThrow('input timings: balances the shards of a check; set shard too');
    expect(readInputs(env({ mode: 'report', 'allow-incomplete': 'true' })).allowIncomplete).toBe(true);
    expect(() => readInputs(env({ 'allow-incomplete': 'perhaps' }))).toThrow('input allow-incomplete: "perhaps" is not a boolean');
  });
  it('results and pr-number: report mode only (a merge job without mode: report would replay the suite, spending, instead of combining)', () => {
    expect(() => readInputs(env({ results: 'shards' }))).toThrow('input results: only report mode combines recorded results; mode check replays the suite (set mode: report, or remove results here)');
    expect(() => readInputs(env({ mode: 'accept', 'pr-number': '7' }))).toThrow('input pr-number: only report mode comments on a pull request it is given; mode accept reads it from the event (set mode: report, or remove pr-number here)');
    expect(readInputs(env({ mode: 'report', results: 'shards', 'pr-number': '7' }))).toMatchObject({ results: ['shards'], prNumber: 7 });
  });
  it('check-workflow: a workflow file name, a .github/workflows path reduced to it, anything else refused', () => {
    expect(readInputs(env({})).checkWorkflow).toBeNull();
    expect(readInputs(env({ mode: 'accept', 'check-workflow': 'agent-replay.yml' })).checkWorkflow).toBe('agent-replay.yml');
    expect(readInputs(env({ mode: 'accept', 'check-workflow': '.github/workflows/check.yaml' })).checkWorkflow).toBe('check.yaml');
    expect(() => readInputs(env({ mode: 'accept', 'check-workflow': 'agent replay' }))).toThrow(
      'input check-workflow: "agent replay" is not a workflow file name; use the check workflow\'s file name in .github/workflows, for example agent-replay.yml',
    );
    expect(() => readInputs(env({ mode: 'accept', 'check-workflow': '../x.yml' }))).toThrow(/is not a workflow file name/);
  });
  it('check-workflow outside accept mode and allow-incomplete: true outside report mode are input errors naming the input and the mode, as results and shard are', () => {
    expect(() => readInputs(env({ 'check-workflow': 'agent-replay.yml' }))).toThrow(
      'input check-workflow: only accept mode dispatches the check workflow, after its baseline commit; mode check replays the suite (set it on the accept job, with mode: accept, or remove check-workflow here)',
    );
    expect(() => readInputs(env({ mode: 'report', 'check-workflow': 'agent-replay.yml' }))).toThrow('input check-workflow: only accept mode dispatches the check workflow, after its baseline commit; mode report reads recorded results');
    expect(() => readInputs(env({ shard: '1/2', 'allow-incomplete': 'true' }))).toThrow(
      'input allow-incomplete: only report mode merges shards, and only a merge can be incomplete; mode check replays the suite (set it on the merge job, with mode: report, or remove allow-incomplete here)',
    );
    expect(() => readInputs(env({ mode: 'accept', 'allow-incomplete': 'yes' }))).toThrow('input allow-incomplete: only report mode merges shards, and only a merge can be incomplete; mode accept reads the reviewed run');
    // false asks for what every mode does.
    expect(readInputs(env({ 'allow-incomplete': 'false' })).allowIncomplete).toBe(false);
  });
  /** A workflow expression, given a value every input takes (`${{ matrix.shard }}/4`: 1/4). */
  const EXPRESSION = /\$\{\{[^}]*\}\}/g;
  it("the docs' workflows give each input only to a mode that reads it (test/cli/init.test.ts: the workflows init writes)", () => {
    let steps = 0;
    for (const [, text] of page.matchAll(/```yaml\n([\s\S]*?)```/g)) {
      const doc = parse(text as string) as { jobs?: Record<string, { steps?: { uses?: string; with?: Record<string, unknown> }[] }> } | null;
      for (const job of Object.values(doc?.jobs ?? {})) {
        for (const step of job.steps ?? []) {
          if (!step.uses?.startsWith('agent-replay/agent-replay@')) continue;
          steps++;
          const inputs = Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, String(v).replace(EXPRESSION, '1')]));
          expect(() => readInputs(env(inputs)), JSON.stringify(inputs)).not.toThrow();
        }
      }
    }
    expect(steps).toBeGreaterThanOrEqual(5);
  });
  it('parses headers and treats their values as secrets, never echoing them in errors', () => {
    expect(parseHeaders('Authorization: Bearer abc:def\n\nX-Env: preview')).toEqual({ Authorization: 'Bearer abc:def', 'X-Env': 'preview' });
    expect(() => parseHeaders('no colon secret-value')).toThrow('input agent-headers: line 1 is not "Name: value"');
    try {
      parseHeaders('bad header: secret-value');
    } catch (e) {
      expect((e as Error).message).not.toContain('secret-value');
    }
    const i = readInputs(env({ 'agent-headers': 'Authorization: Bearer t0ken', 'judge-api-key': 'sk-123', 'github-token': 'ghs_x' }));
    expect(inputSecrets(i).sort()).toEqual(['Bearer t0ken', 'ghs_x', 'sk-123']);
  });
});
