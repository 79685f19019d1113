// `agent-replay init`: writes a suite that `validate` accepts with no environment variable set, and
// three workflows that GitHub's own workflow parser and schema (@actions/workflow-parser, the
// schema behind GitHub's Actions language service) accept; never overwrites a file.

import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tempDir } from '../support/temp.js';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { NoOperationTraceWriter, parseWorkflow } from '@actions/workflow-parser';
import { cli, makeProject, readResults, scriptedAgent, serve, useCleanup } from './helpers.js';
import { RESULTS_GITIGNORE } from '../../src/cli/results-dir.js';
import { ACTION_USES, agentSecretStep, checkNameWarning, INIT_COST, INIT_TEMPLATES, keptCheckName, keptPreset, offeredPresets } from '../../src/cli/init.js';
import { AGENT_PRESETS } from '../../src/suite/index.js';
import { resolveConfigFile } from '../../src/suite/config-file.js';
import { loadYamlPackage, readYaml } from '../../src/suite/yaml/index.js';
import { TOOL } from '../../src/version.js';
import { envInputGetter, readInputs } from '../../src/action/inputs.js';
import { artifactNameFor } from '../../src/action/context.js';
import { quotedAndSaid } from '../support/troubleshooting.js';
import { downloadsTake } from '../support/download-pattern.js';

useCleanup();

const WORKFLOWS = ['agent-replay.yml', 'agent-replay-accept.yml', 'agent-replay-report.yml'];
const ALL = ['.agent-replay/config.yml', '.agent-replay/fixtures/example-greeting.yml', ...WORKFLOWS.map((w) => `.github/workflows/${w}`)];

/** An empty project folder (makeProject with nothing creates .agent-replay/fixtures; start from a bare one). */
async function emptyProject(): Promise<string> {
  const cwd = await makeProject({});
  return join(cwd, 'repo');
}

async function initIn(cwd: string, args: string[] = []) {
  await mkdir(cwd, { recursive: true });
  return cli(['init', ...args], cwd);
}

interface Workflow {
  name: string;
  on: Record<string, unknown>;
  permissions: Record<string, string>;
  jobs: Record<string, { if?: string; steps: { if?: string; uses?: string; with?: Record<string, unknown> }[] }>;
}

describe('agent-replay init', () => {
  it.each([...offeredPresets()])('writes a suite that validate accepts with no environment variable set (preset %s)', async (preset) => {
    const cwd = await emptyProject();
    const run = await initIn(cwd, ['--preset', preset]);
    expect(run.code, run.stderr).toBe(0);
    for (const f of ALL) expect(run.stdout).toContain(`created  ${f}`);
    expect(run.stdout).toContain('5 created, 0 skipped');
    expect(run.stdout).toContain('Next:');
    const config = parse(await readFile(join(cwd, '.agent-replay/config.yml'), 'utf8')) as { agent: { preset: string } };
    expect(config.agent.preset).toBe(preset);
    const validate = await cli(['validate'], cwd, {});
    expect(validate.code, validate.stderr).toBe(0);
    expect(validate.stdout).toBe('.agent-replay: 1 fixture, 0 baselines, no configuration errors\n');
    expect(validate.stderr).toBe(''); // not even a warning
  });

  it('each workflow whose job skips some events (if:) keeps its concurrency group on the job: a skipped run (a deployment marked inactive, another label) would join a workflow-level group and cancel the run in progress', async () => {
    const cwd = await emptyProject();
    await initIn(cwd, []);
    for (const name of WORKFLOWS) {
      const text = await readFile(join(cwd, '.github/workflows', name), 'utf8');
      const wf = parse(text) as { concurrency?: unknown; jobs: Record<string, { if?: string; concurrency?: unknown }> };
      const filtered = Object.values(wf.jobs).filter((j) => j.if !== undefined);
      if (filtered.length > 0) expect(wf.concurrency, `${name}\n${text}`).toBeUndefined();
      if (name !== 'agent-replay-report.yml') expect(filtered.every((j) => j.concurrency !== undefined), `${name}\n${text}`).toBe(true);
      const parsed = parseWorkflow({ name, content: text }, new NoOperationTraceWriter());
      expect(parsed.context.errors.getErrors().map((e) => e.message)).toEqual([]);
    }
  });

  it.each([...offeredPresets()])('config.yml and the check workflow name the same header and secret for the agent key (preset %s)', async (preset) => {
    const cwd = await emptyProject();
    await initIn(cwd, ['--preset', preset]);
    const config = await readFile(join(cwd, '.agent-replay/config.yml'), 'utf8');
    const workflow = await readFile(join(cwd, '.github/workflows/agent-replay.yml'), 'utf8');
    const inConfig = /^\s*#\s*([\w-]+): "((?:Bearer )?)\$\{(\w+)\}"$/m.exec(config);
    const inWorkflow = /# agent-headers: \|\n\s*#\s+([\w-]+): ((?:Bearer )?)\$\{\{ secrets\.(\w+) \}\}$/m.exec(workflow);
    expect(inConfig, config).not.toBeNull();
    expect(inWorkflow, workflow).not.toBeNull();
    expect(inWorkflow?.slice(1)).toEqual(inConfig?.slice(1));
  });

  it('says the agent\'s secret is optional for rasa-rest, whose REST channel checks no key, and needed for the others', () => {
    expect(agentSecretStep('rasa-rest')).toBe("AGENT_TOKEN for the agent's Authorization header (only if a proxy in front of Rasa asks for one: its REST channel checks no key of its own)");
    expect(agentSecretStep('native')).toBe("AGENT_TOKEN for the agent's Authorization header");
    expect(agentSecretStep('openai-chat')).toBe("OPENAI_API_KEY for the agent's Authorization header");
  });

  it('offers every preset the config loader accepts, and only those (derived at run time)', () => {
    const known = AGENT_PRESETS as readonly string[];
    // A template for each preset the loader knows: none is dropped because its template is wrong ...
    expect(offeredPresets()).toEqual(INIT_TEMPLATES.filter((p) => known.includes(p)));
    // ... and no preset of the loader lacks a template.
    expect(known.filter((p) => !(INIT_TEMPLATES as readonly string[]).includes(p))).toEqual([]);
    expect(offeredPresets()).toContain('native');
    expect(offeredPresets()).toContain('openai-chat');
  });

  it.each([...offeredPresets()])('the %s config says what the preset needs, with keys only in comments', async (preset) => {
    const cwd = await emptyProject();
    const run = await initIn(cwd, ['--preset', preset]);
    const text = await readFile(join(cwd, '.agent-replay/config.yml'), 'utf8');
    // Step 2 names the secret the config's header and the workflow's agent-headers read.
    const secret = /\$\{\{ secrets\.([A-Z_]+) \}\}/.exec(await readFile(join(cwd, '.github/workflows/agent-replay.yml'), 'utf8'))?.[1];
    expect(text).toContain(`\${${secret}}`);
    expect(run.stdout).toMatch(new RegExp(`2\\. Add the secrets [^\\n]*\\n\\s+${secret} for the agent's `));
    const agent = (parse(text) as { agent: Record<string, unknown> }).agent;
    expect(agent.preset).toBe(preset);
    if (['openai-chat', 'openai-responses', 'anthropic-messages'].includes(preset)) expect(typeof agent.model).toBe('string');
    if (preset === 'anthropic-messages') expect(agent).toMatchObject({ maxTokens: 1024, headers: { 'anthropic-version': '2023-06-01' } });
    if (preset === 'langgraph') expect(agent.assistantId).toBe('agent');
    // No ${VAR} outside a comment: validate passes with no environment variable set.
    for (const line of text.split('\n')) if (line.includes('${')) expect(line.trim().startsWith('#') || line.slice(0, line.indexOf('${')).includes('#'), line).toBe(true);
    const checkText = await readFile(join(cwd, '.github/workflows/agent-replay.yml'), 'utf8');
    const parsed = parseWorkflow({ name: 'agent-replay.yml', content: checkText }, new NoOperationTraceWriter());
    expect(parsed.context.errors.getErrors().map((e) => e.message)).toEqual([]);
    const check = parse(checkText) as Workflow;
    const path = check.jobs.replay!.steps[1]!.with!['agent-path'];
    expect(path).toMatch(/^\//);
    expect(text).toContain(`# url: http`);
    expect(text).toContain(String(path));
    // The commented traces: section (docs/traces.md, "The traces: section"): uncommented as it is,
    // the loader reads a receiver on the port the agent's exporter is told to send to.
    const traces = text.replace(/^# (traces:\n)# ( {2}receive: .*)$/m, '$1$2');
    expect(traces).not.toBe(text);
    const loaded = readYaml('config.yml', traces);
    const resolved = resolveConfigFile(loaded.src, 'config.yml', loaded.data, {});
    expect(resolved.errors).toEqual([]);
    expect(resolved.config?.traces).toMatchObject({ receive: { port: 4318 }, query: null });
    expect(text).toContain('OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4318');
  });

  it('init, then probe the agent with the config it wrote', async () => {
    const agent = await serve();
    const cwd = await emptyProject();
    await initIn(cwd);
    const r = await cli(['probe', 'Hello! What can you help me with?', '--agent-url', agent.url, '--assert', 'regex:/help/i'], cwd);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('verdict pass: ');
    expect(agent.requests).toHaveLength(2); // the native preset's welcome turn, then the message
  });

  it('a first run of 20 fixtures against a local agent stays under the cap init writes, and leaves git status clean', async () => {
    const agent = await serve(scriptedAgent({}));
    const cwd = await emptyProject();
    await initIn(cwd);
    for (let i = 1; i < 20; i++) await writeFile(join(cwd, `.agent-replay/fixtures/f${i}.yml`), `label: f${i}\nmessage: question ${i}\n`);
    const git = (...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' } });
    git('init', '-q');
    git('add', '.');
    git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', 'suite');
    const run = await cli(['run', '--agent-url', agent.url], cwd);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toContain('not run');
    expect(run.stdout).toContain(`results: ${join(cwd, '.agent-replay/results/results.json')}`);
    expect((await readResults(join(cwd, '.agent-replay/results/results.json'))).fixtures).toHaveLength(20);
    // The next step is said, in the report's words: accept, then commit what accept wrote.
    expect(run.stdout.endsWith('\nnext: to accept the 20 new or changed pass/fail results as baselines: npx agent-replay accept\n')).toBe(true);
    expect(git('status', '--porcelain', '--untracked-files=all')).toBe('');
    // The results folder ignores itself; a file already there is left alone.
    expect(await readFile(join(cwd, '.agent-replay/results/.gitignore'), 'utf8')).toBe(RESULTS_GITIGNORE);
    // accept reads the default results file when none is named.
    const accept = await cli(['accept'], cwd);
    expect(accept.code, accept.stderr).toBe(0);
    expect(accept.stdout).toContain('20 accepted');
    expect(accept.stdout).toContain('\nnext: commit them (git add .agent-replay/baselines): ');
  });

  it('a results folder whose .gitignore was deleted, as the file says, to commit the results: the next run does not write it again', async () => {
    const agent = await serve(scriptedAgent({}));
    const cwd = await emptyProject();
    await initIn(cwd);
    const git = (...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' } });
    git('init', '-q');
    expect((await cli(['run', '--agent-url', agent.url], cwd)).code).toBe(0);
    const ignore = join(cwd, '.agent-replay/results/.gitignore');
    expect(await readFile(ignore, 'utf8')).toContain('delete this file to commit them');
    await rm(ignore);
    const again = await cli(['run', '--agent-url', agent.url], cwd);
    expect(again.code, again.stderr).toBe(0);
    expect(existsSync(ignore)).toBe(false);
    expect(git('status', '--porcelain', '--untracked-files=all')).toContain('.agent-replay/results/results.json');
  });

  it('the judged fixtures with baselines its cap comment promises run on the next run too; one more waits for --confirm-cost', async () => {
    const agent = await serve(scriptedAgent({}));
    const judge = await serve(() => ({ json: { choices: [{ message: { role: 'assistant', content: JSON.stringify({ score: 0.9, rationale: 'ok' }) } }] } }));
    const cwd = await emptyProject();
    await initIn(cwd);
    const configFile = join(cwd, '.agent-replay/config.yml');
    const config = await readFile(configFile, 'utf8');
    const promised = Number(/one more: (\d+) judged fixtures\s*\n\s*# with baselines/.exec(config)?.[1]);
    expect(promised).toBe(33);
    await writeFile(configFile, `${config}judge: { provider: openai, baseUrl: ${judge.url}, model: m, apiKey: k }\n`);
    const fixtures = (n: number) => Array.from({ length: n }, (_, i) => `  - { label: q${i}, message: question ${i}, assert: { judge: "answers" } }`).join('\n');
    const baselinesDir = join(cwd, '.agent-replay/baselines');
    await mkdir(baselinesDir, { recursive: true });
    for (let i = 0; i <= promised; i++) {
      await writeFile(join(baselinesDir, `q${i}.json`), JSON.stringify({ label: `q${i}`, reply: `echo: question ${i}`, route: null, verdict: 'pass', acceptedAt: '2026-11-01T10:00:00.000Z', commit: null }));
    }
    await writeFile(join(cwd, '.agent-replay/fixtures/example-greeting.yml'), `fixtures:\n${fixtures(promised)}\n`);
    await writeFile(join(cwd, '.agent-replay/fixtures/extra.yml'), `label: q${promised}\nmessage: question ${promised}\nassert: { judge: "answers" }\n`);
    // One more than promised: refused before anything is sent.
    const refused = await cli(['run', '--agent-url', agent.url], cwd);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('not run: the estimated cost');
    expect(agent.requests).toHaveLength(0);
    // As many as promised: it runs.
    await rm(join(cwd, '.agent-replay/fixtures/extra.yml'));
    await rm(join(baselinesDir, `q${promised}.json`));
    const run = await cli(['run', '--agent-url', agent.url, '--fail-on', 'none'], cwd);
    expect(run.stderr).not.toContain('not run');
    expect(run.code, run.stderr).toBe(0);
  });

  it.each([...offeredPresets()])('the cost comment is true for preset %s: the fixtures it says fit run, one more waits for --confirm-cost', async (preset) => {
    // Any JSON answer will do: the fixtures are not refused by the cap, whatever their verdicts.
    const agent = await serve(() => ({ json: {} }));
    const cwd = await emptyProject();
    await initIn(cwd, ['--preset', preset]);
    const config = await readFile(join(cwd, '.agent-replay/config.yml'), 'utf8');
    const said = /covers (\d+) fixtures of (\d) agent calls? each\s*\n\s*# \(([^)]*)\)/.exec(config);
    expect(said, config).not.toBeNull();
    const [, promised, calls, why] = said as unknown as [string, string, string, string];
    const welcome = preset === 'native';
    expect(Number(calls)).toBe(welcome ? 2 : 1);
    expect(why).toBe(welcome ? 'a welcome turn and the message' : 'the message; this preset has no welcome turn');
    const fixtures = (n: number) => `fixtures:\n${Array.from({ length: n }, (_, i) => `  - { label: q${i}, message: question ${i} }`).join('\n')}\n`;
    await writeFile(join(cwd, '.agent-replay/fixtures/example-greeting.yml'), fixtures(Number(promised) + 1));
    const refused = await cli(['run', '--agent-url', agent.url], cwd);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`not run: the estimated cost $${((Number(promised) + 1) * Number(calls) * INIT_COST.agentTurnUsd).toFixed(2)} for ${(Number(promised) + 1) * Number(calls)} agent turns (${Number(promised) + 1} fixtures)`);
    expect(agent.requests).toHaveLength(0);
    await writeFile(join(cwd, '.agent-replay/fixtures/example-greeting.yml'), fixtures(Number(promised)));
    const run = await cli(['run', '--agent-url', agent.url, '--fail-on', 'none'], cwd);
    expect(run.stderr).not.toContain('not run');
    expect(run.code, run.stderr).toBe(0);
    expect(agent.requests).toHaveLength(Number(promised) * Number(calls));
  });

  it('the cap init writes is still a cap: a suite of hundreds is refused until confirmed, nothing sent', async () => {
    const agent = await serve(scriptedAgent({}));
    const cwd = await emptyProject();
    await initIn(cwd);
    const many = Array.from({ length: 60 }, (_, i) => `  - { label: q${i}, message: question ${i} }`).join('\n');
    await writeFile(join(cwd, '.agent-replay/fixtures/many.yml'), `fixtures:\n${many}\n`);
    const run = await cli(['run', '--agent-url', agent.url], cwd);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('not run: the estimated cost $1.22 for 122 agent turns (61 fixtures) is above the cost cap $1.00.');
    expect(agent.requests).toHaveLength(0);
    const config = parse(await readFile(join(cwd, '.agent-replay/config.yml'), 'utf8')) as { cost: { capUsd: number } };
    expect(config.cost.capUsd).toBe(INIT_COST.capUsd);
  });

  it('running it twice overwrites nothing, and says which files it skipped', async () => {
    const cwd = await emptyProject();
    await initIn(cwd);
    const edited = 'agent:\n  url: http://localhost:3000/api/chat\n';
    await writeFile(join(cwd, '.agent-replay/config.yml'), edited);
    const before = await Promise.all(ALL.map((f) => readFile(join(cwd, f), 'utf8')));
    const again = await initIn(cwd, ['--preset', 'openai-chat']);
    expect(again.code).toBe(0);
    for (const f of ALL) expect(again.stdout).toContain(`skipped  ${f} (it exists; left as it is)`);
    expect(again.stdout).toContain('0 created, 5 skipped');
    expect(await Promise.all(ALL.map((f) => readFile(join(cwd, f), 'utf8')))).toEqual(before);
    expect(await readFile(join(cwd, '.agent-replay/config.yml'), 'utf8')).toBe(edited);
    // The kept config.yml has no commented header to uncomment: the key to set is named.
    expect(again.stdout).toContain('and the Authorization header under agent.headers in .agent-replay/config.yml to run it locally.\n');
    expect(again.stdout).not.toContain('uncomment');
    // The config.yml kept names no preset (native): --preset openai-chat is said not to be what runs.
    expect(again.stderr).toBe(
      `\nwarning: .agent-replay/config.yml was already there and is left as it is: its agent.preset is native, not openai-chat, so runs speak native's protocol; the next steps above are for openai-chat.\n` +
        `  fix: set preset: openai-chat under agent: in .agent-replay/config.yml, with the settings openai-chat takes (https://github.com/agent-replay/agent-replay/blob/v${TOOL.version}/docs/presets.md#presets), or move .agent-replay/config.yml aside and run init again: npx agent-replay init --preset openai-chat\n`,
    );
  });

  it("run again without --preset, its next steps and the workflows it writes are for the preset of the config.yml already there, not native's", async () => {
    const cwd = await emptyProject();
    await initIn(cwd, ['--preset', 'openai-chat']);
    const again = await initIn(cwd);
    expect(again.stderr).toBe('');
    expect(again.stdout).toContain('(e.g. /v1/chat/completions)');
    expect(again.stdout).toContain("OPENAI_API_KEY for the agent's Authorization header");
    expect(again.stdout).toContain('npx agent-replay run --dir .agent-replay --agent-url http://localhost:3000/v1/chat/completions');
    expect(again.stdout).not.toContain('/api/chat');
    await rm(join(cwd, '.github/workflows/agent-replay.yml'));
    await initIn(cwd);
    expect(await readFile(join(cwd, '.github/workflows/agent-replay.yml'), 'utf8')).toContain('agent-path: /v1/chat/completions');
  });

  it('a suite whose config file is config.yaml gets no config.yml beside it (it would be read in its place): config.yaml is kept, its preset replayed and named', async () => {
    const cwd = await emptyProject();
    await mkdir(join(cwd, '.agent-replay'), { recursive: true });
    const own = 'agent:\n  preset: openai-chat\n  url: http://localhost:3000/v1/chat/completions\n';
    await writeFile(join(cwd, '.agent-replay/config.yaml'), own);
    const run = await initIn(cwd, ['--preset', 'anthropic-messages']);
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(join(cwd, '.agent-replay/config.yml'))).toBe(false);
    expect(run.stdout).toContain('skipped  .agent-replay/config.yaml (it exists; left as it is)');
    expect(await readFile(join(cwd, '.agent-replay/config.yaml'), 'utf8')).toBe(own);
    expect(run.stdout).toContain('the x-api-key header under agent.headers in .agent-replay/config.yaml to run it locally.\n');
    expect(run.stderr).toContain('warning: .agent-replay/config.yaml was already there and is left as it is: its agent.preset is openai-chat, not anthropic-messages');
    expect(run.stderr).toContain('or move .agent-replay/config.yaml aside and run init again');
    expect(`${run.stdout}${run.stderr}`).not.toContain('config.yml');
    // The example fixture it writes says a judge is set in config.yaml.
    expect(await readFile(join(cwd, '.agent-replay/fixtures/example-greeting.yml'), 'utf8')).toContain('threshold: 0.7 }   needs a judge in config.yaml\n');
  });

  it("reads the name GitHub gives a check workflow already there: its name:, else its path; none when it is agent-replay or cannot be read", async () => {
    // keptCheckName reads YAML with the package init loads first: loaded here, so the test stands alone (-t).
    await loadYamlPackage();
    const path = '.github/workflows/agent-replay.yml';
    expect(keptCheckName('name: mine\non: push\n', path)).toEqual({ name: 'mine', keys: [{ key: 'mine', set: false, step: null }] });
    expect(keptCheckName('on: push\n', path)).toEqual({ name: path, keys: [{ key: path, set: false, step: null }] });
    expect(keptCheckName('name: agent-replay\non: push\n', path)).toBeNull();
    expect(keptCheckName("name: 'agent-replay'\n", path)).toBeNull();
    expect(keptCheckName('name: [oops\n', path)).toBeNull();
    expect(checkNameWarning(path, { name: 'mine', keys: [{ key: 'mine', set: false, step: null }] }, { accept: null, report: '.github/workflows/agent-replay-report.yml' })).toContain(
      'not agent-replay: .github/workflows/agent-replay-report.yml (workflows: [agent-replay]) never runs after it.\n  fix: if it is the check, set name: agent-replay in it; else set workflows to "mine" in .github/workflows/agent-replay-report.yml\n',
    );
  });

  it("reads the key a check workflow already there posts its comment under: its step's comment-key, else its name, and warns when it is not agent-replay", async () => {
    // keptCheckName reads YAML with the package init loads first: loaded here, so the test stands alone (-t).
    await loadYamlPackage();
    const path = '.github/workflows/agent-replay.yml';
    const accept = '.github/workflows/agent-replay-accept.yml';
    const report = '.github/workflows/agent-replay-report.yml';
    const named = (key: string) => `name: agent-replay\non: push\njobs:\n  replay:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: agent-replay/agent-replay@v1\n        with:\n          comment-key: ${key}\n`;
    const kept = keptCheckName(named('replay-check'), path);
    expect(kept).toEqual({ name: null, keys: [{ key: 'replay-check', set: true, step: null }] });
    expect(checkNameWarning(path, kept!, { accept, report })).toBe(
      'warning: .github/workflows/agent-replay.yml was already there and sets comment-key: "replay-check", not agent-replay: .github/workflows/agent-replay-accept.yml (comment-key: agent-replay) finds no comment of it.\n' +
        '  fix: if it is the check, set comment-key: agent-replay in it; else set comment-key to "replay-check" in .github/workflows/agent-replay-accept.yml\n',
    );
    // The report workflow finds it by its name, which is agent-replay: nothing to say of it alone.
    expect(checkNameWarning(path, kept!, { accept: null, report })).toBeNull();
    // Set to agent-replay, or to an expression init cannot read: nothing is said.
    expect(keptCheckName(named('agent-replay'), path)).toBeNull();
    expect(keptCheckName(named("'${{ github.workflow }}'"), path)).toBeNull();
    // Named otherwise, with comment-key: agent-replay: only the report workflow misses it.
    const renamed = keptCheckName(named('agent-replay').replace('name: agent-replay', 'name: mine'), path);
    expect(renamed).toEqual({ name: 'mine', keys: [] });
    // A name with an escape sequence, a line break and a U+2028: each as its JSON escape, one backslash (was \\u001b, the backslash doubled).
    expect(checkNameWarning(path, { name: 'mine\u001b[2J\n\u2028x', keys: [] }, { accept, report })).toContain(String.raw`is named "mine\u001b[2J\n\u2028x", not agent-replay`);
    expect(checkNameWarning(path, renamed!, { accept, report })).toBe(
      'warning: .github/workflows/agent-replay.yml was already there and is named "mine", not agent-replay: .github/workflows/agent-replay-report.yml (workflows: [agent-replay]) never runs after it.\n' +
        '  fix: if it is the check, set name: agent-replay in it; else set workflows to "mine" in .github/workflows/agent-replay-report.yml\n',
    );
  });

  it('compares the comment-key of every agent-replay step of a check workflow already there (two suites, two keys), and names the step that differs', async () => {
    // keptCheckName reads YAML with the package init loads first: loaded here, so the test stands alone (-t).
    await loadYamlPackage();
    const path = '.github/workflows/agent-replay.yml';
    const accept = '.github/workflows/agent-replay-accept.yml';
    const report = '.github/workflows/agent-replay-report.yml';
    const step = (dir: string | null, key: string | null): string =>
      `      - uses: agent-replay/agent-replay@v1\n        with:\n${dir === null ? '' : `          dir: ${dir}\n`}${key === null ? '' : `          comment-key: ${key}\n`}          agent-path: /api/chat\n`;
    const workflow = (name: string, ...steps: string[]): string => `name: ${name}\non: push\njobs:\n  replay:\n    runs-on: ubuntu-latest\n    steps:\n${steps.join('')}`;
    // The first step's key is agent-replay, the second's is not: the second is said, by its suite folder.
    const second = keptCheckName(workflow('agent-replay', step('apps/support/.agent-replay', 'agent-replay'), step('apps/sales/.agent-replay', 'sales')), path);
    expect(second).toEqual({ name: null, keys: [{ key: 'sales', set: true, step: 'apps/sales/.agent-replay' }] });
    expect(checkNameWarning(path, second!, { accept, report })).toBe(
      'warning: .github/workflows/agent-replay.yml was already there and its step for apps/sales/.agent-replay sets comment-key: "sales", not agent-replay: .github/workflows/agent-replay-accept.yml (comment-key: agent-replay) finds no comment of its step for apps/sales/.agent-replay.\n' +
        '  fix: if it is the check, set comment-key: agent-replay in its step for apps/sales/.agent-replay; else set comment-key to "sales" in .github/workflows/agent-replay-accept.yml\'s step for apps/sales/.agent-replay\n',
    );
    // The first differs and the second is agent-replay: the first, not both.
    expect(keptCheckName(workflow('agent-replay', step('apps/support/.agent-replay', 'support'), step('apps/sales/.agent-replay', 'agent-replay')), path)).toEqual({
      name: null,
      keys: [{ key: 'support', set: true, step: 'apps/support/.agent-replay' }],
    });
    // A step without comment-key posts under the workflow's name; one without dir is the default suite's.
    const mixed = keptCheckName(workflow('mine', step(null, 'agent-replay'), step('apps/sales/.agent-replay', null)), path);
    expect(mixed).toEqual({ name: 'mine', keys: [{ key: 'mine', set: false, step: 'apps/sales/.agent-replay' }] });
    expect(checkNameWarning(path, mixed!, { accept, report: null })).toBe(
      'warning: .github/workflows/agent-replay.yml was already there and is named "mine", not agent-replay: .github/workflows/agent-replay-accept.yml (comment-key: agent-replay) finds no comment of its step for apps/sales/.agent-replay.\n' +
        '  fix: if it is the check, set name: agent-replay in it; else set comment-key to "mine" in .github/workflows/agent-replay-accept.yml\'s step for apps/sales/.agent-replay\n',
    );
    // Every step's key agent-replay: nothing to say.
    expect(keptCheckName(workflow('agent-replay', step(null, 'agent-replay'), step('apps/sales/.agent-replay', 'agent-replay')), path)).toBeNull();
  });

  it('reads the preset of a config.yml already there as the config loader does: agent.preset, else native; null when it is not a mapping', () => {
    expect(keptPreset('agent:\n  preset: anthropic-messages\n')).toBe('anthropic-messages');
    expect(keptPreset('agent: { preset: "langgraph" }\n')).toBe('langgraph');
    expect(keptPreset('agent:\n  url: http://localhost:3000/api/chat\n')).toBe('native');
    expect(keptPreset('cost: { capUsd: 1 }\n')).toBe('native');
    expect(keptPreset('')).toBe('native');
    expect(keptPreset('agent: [1\n')).toBeNull();
    expect(keptPreset('- a\n')).toBeNull();
    expect(keptPreset('agent:\n  preset: 3\n')).toBeNull();
  });

  it('a check workflow already there is not said to be one to edit: the next steps say it was left as it is', async () => {
    const cwd = await emptyProject();
    await mkdir(join(cwd, '.github/workflows'), { recursive: true });
    await writeFile(join(cwd, '.github/workflows/agent-replay.yml'), 'name: mine\n');
    const run = await initIn(cwd);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('skipped  .github/workflows/agent-replay.yml (it exists; left as it is)');
    expect(run.stdout).toContain("1. .github/workflows/agent-replay.yml was already there and is left as it is: check that it runs agent-replay with agent-path set to your agent's path on the preview (e.g. /api/chat).");
    expect(run.stdout).not.toContain('set agent-path to');
    // Its secrets go in inputs it may not have commented out: set, not uncommented; config.yml is init's.
    expect(run.stdout).toContain(
      "then set the agent-replay step's\n     agent-headers / judge-api-key inputs in .github/workflows/agent-replay.yml, and the header in .agent-replay/config.yml to run it locally.\n",
    );
    expect(await readFile(join(cwd, '.github/workflows/agent-replay.yml'), 'utf8')).toBe('name: mine\n');
    // The accept and report workflows written beside it find the check by the name agent-replay: said, with the fix.
    expect(run.stderr).toBe(
      '\nwarning: .github/workflows/agent-replay.yml was already there and is named "mine", not agent-replay: .github/workflows/agent-replay-accept.yml (comment-key: agent-replay) finds no comment of it, and .github/workflows/agent-replay-report.yml (workflows: [agent-replay]) never runs after it.\n' +
        '  fix: if it is the check, set name: agent-replay in it; else set comment-key and workflows to "mine" in the files init wrote\n',
    );
    // Written this time: the step to edit it, as before.
    await rm(join(cwd, '.github/workflows/agent-replay.yml'));
    const again = await initIn(cwd);
    expect(again.stdout).toContain("1. In .github/workflows/agent-replay.yml, set agent-path to your agent's path on the preview (e.g. /api/chat).");
  });

  it('writes only the missing files, and never writes through a link planted at a target', async () => {
    const cwd = await emptyProject();
    const outside = await tempDir('agent-replay-outside-');
    const victim = join(outside, 'victim.txt');
    await writeFile(victim, 'untouched');
    await mkdir(join(cwd, '.github/workflows'), { recursive: true });
    await symlink(victim, join(cwd, '.github/workflows/agent-replay.yml'));
    const run = await initIn(cwd);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('skipped  .github/workflows/agent-replay.yml');
    expect(run.stdout).toContain('4 created, 1 skipped');
    expect(await readFile(victim, 'utf8')).toBe('untouched');
  });

  it('a folder it cannot write: the files it cannot write are named with the reason and the fix, the others written, exit 2', async () => {
    const cwd = await emptyProject();
    // A file where the workflows' folder goes (as a read-only folder would, even for root).
    await mkdir(cwd, { recursive: true });
    await writeFile(join(cwd, '.github'), 'not a folder');
    const run = await initIn(cwd);
    expect(run.code).toBe(2);
    expect(run.stdout).toContain('created  .agent-replay/config.yml');
    expect(run.stdout).toContain('2 created, 0 skipped, 3 not written');
    expect(run.stdout).not.toContain('Next:');
    for (const w of WORKFLOWS) expect(run.stderr).toMatch(new RegExp(`not written  \\.github/workflows/${w.replace('.', '\\.')}: a part of the path is a file, not a folder \\(ENOTDIR`));
    expect(run.stderr).toContain('fix: run init at the root of a repository you can write to, or make the folders named above writable');
    quotedAndSaid(run.stderr, 'not written  .agent-replay/config.yml: permission denied (EACCES: ...)', {
      '.agent-replay/config.yml': '.github/workflows/agent-replay.yml',
      'permission denied (EACCES': 'a part of the path is a file, not a folder (ENOTDIR',
    });
    expect(await readFile(join(cwd, '.github'), 'utf8')).toBe('not a folder');
    expect((await cli(['validate'], cwd)).code).toBe(0);
  });

  it('honours --dir and --workflows', async () => {
    const cwd = await emptyProject();
    const run = await initIn(cwd, ['--dir', 'qa/suite', '--workflows', 'ci/wf']);
    expect(run.code, run.stderr).toBe(0);
    expect((await readdir(join(cwd, 'ci/wf'))).sort()).toEqual([...WORKFLOWS].sort());
    const check = parse(await readFile(join(cwd, 'ci/wf/agent-replay.yml'), 'utf8')) as Workflow;
    expect(check.jobs.replay!.steps[1]!.with).toMatchObject({ dir: 'qa/suite' });
    // The accept job commits into the same suite folder (its default, .agent-replay, is not the suite's).
    const accept = parse(await readFile(join(cwd, 'ci/wf/agent-replay-accept.yml'), 'utf8')) as Workflow;
    expect(accept.jobs.accept!.steps[0]!.with).toMatchObject({ mode: 'accept', dir: 'qa/suite' });
    // The label in both places that name it, side by side: renaming one alone accepts nothing (docs/action.md, "Accept: the label commits the reviewed replies").
    expect(accept.jobs.accept!.if).toBe("github.event.label.name == 'accept-baseline'");
    expect(accept.jobs.accept!.steps[0]!.with).toMatchObject({ 'accept-label': 'accept-baseline' });
    // The report step's comment names it too, and its job has no checkout to read the accept workflow from.
    const report = parse(await readFile(join(cwd, 'ci/wf/agent-replay-report.yml'), 'utf8')) as Workflow;
    expect(report.jobs.report!.steps.find((s) => s.uses?.startsWith('agent-replay/'))!.with).toMatchObject({ mode: 'report', 'accept-label': 'accept-baseline' });
    expect((await cli(['validate', '--dir', 'qa/suite'], cwd)).code).toBe(0);
  });

  it('folders given with backslashes (typed on Windows): written with slashes, and every command it prints names the folder it wrote', async () => {
    const cwd = await emptyProject();
    const run = await initIn(cwd, ['--dir', 'bots\\shop\\.agent-replay', '--workflows', 'ci\\wf']);
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(join(cwd, 'bots/shop/.agent-replay/config.yml'))).toBe(true);
    expect((await readdir(join(cwd, 'ci/wf'))).sort()).toEqual([...WORKFLOWS].sort());
    // No line of the next steps names the folder with a backslash: a shell on macOS or Linux would
    // look for a folder named "bots\shop\.agent-replay", which init did not write.
    expect(run.stdout).not.toContain('\\');
    expect(run.stdout).toContain('npx agent-replay validate --dir bots/shop/.agent-replay\n');
    expect(run.stdout).toContain('(bots/shop/.agent-replay/fixtures/*.yml)');
    const commands = run.stdout.split('\n').flatMap((l) => /(npx agent-replay validate .*)$/.exec(l)?.[1] ?? []);
    expect(commands.length).toBe(1);
    const argv = execFileSync('sh', ['-c', commands[0]!.replace(/^npx agent-replay /, "printf '%s\\n' ")], { encoding: 'utf8' }).split('\n').slice(0, -1);
    const validate = await cli(argv, cwd);
    expect(validate.code, validate.stderr).toBe(0);
  });

  it('a suite folder with a space and a #: each command it prints runs as pasted, and the workflows read that folder', async () => {
    const cwd = await emptyProject();
    const dir = "bot's suite #1";
    const run = await initIn(cwd, ['--dir', dir]);
    expect(run.code, run.stderr).toBe(0);
    const commands = run.stdout.split('\n').flatMap((l) => /(npx agent-replay .*)$/.exec(l)?.[1] ?? []);
    expect(commands.length).toBe(3);
    for (const command of commands) {
      // The shell splits the pasted line into the arguments the CLI receives.
      const argv = execFileSync('sh', ['-c', command.replace(/^npx agent-replay /, "printf '%s\\n' ")], { encoding: 'utf8' }).split('\n').slice(0, -1);
      expect(argv[argv.indexOf('--dir') + 1], command).toBe(dir);
    }
    const check = parse(await readFile(join(cwd, '.github/workflows/agent-replay.yml'), 'utf8')) as Workflow;
    expect(check.jobs.replay!.steps[1]!.with).toMatchObject({ dir });
    const accept = parse(await readFile(join(cwd, '.github/workflows/agent-replay-accept.yml'), 'utf8')) as Workflow;
    expect(accept.jobs.accept!.steps[0]!.with).toMatchObject({ dir });
    expect((await cli(['validate', '--dir', dir], cwd)).code).toBe(0);
  });

  it('refuses an unknown preset and folders outside the working directory (usage errors), writing nothing', async () => {
    const cwd = await emptyProject();
    const preset = await initIn(cwd, ['--preset', 'soap']);
    expect(preset.code).toBe(2);
    expect(preset.stderr).toContain(`--preset soap is not one init can write; use one of: ${offeredPresets().join(', ')}`);
    // A family's name names its forms; a misspelling its closest preset.
    const family = await initIn(cwd, ['--preset', 'openai']);
    expect(family.code).toBe(2);
    expect(family.stderr).toContain(`--preset openai is not one init can write; did you mean "openai-chat" or "openai-responses"? The presets: ${offeredPresets().join(', ')}`);
    const typo = await initIn(cwd, ['--preset', 'langraph']);
    expect(typo.stderr).toContain('--preset langraph is not one init can write; did you mean "langgraph"?');
    const outside = await initIn(cwd, ['--dir', '../elsewhere']);
    expect(outside.code).toBe(2);
    expect(outside.stderr).toContain('--dir ../elsewhere is outside the working directory');
    expect(await readdir(cwd)).toEqual([]);
  });

  it('a refused --dir, --workflows or --preset with a line break or an escape sequence is named on one line, as the shell reads it', async () => {
    // The value as one shell word, $'...' with each such character in octal (words.ts shownShellWord), as --base's
    // and --out's are: a quote around it could not say where a value with a quote ends, nor show a line break.
    const cwd = await emptyProject();
    for (const [args, said] of [
      [['--dir', '../a\nb'], "--dir $'../a\\012b' is outside the working directory;"],
      [['--workflows', '../w\u001b[2J'], "--workflows $'../w\\033[2J' is outside the working directory;"],
      [['--dir', join(cwd, 'x\ny')], `--dir $'${join(cwd, 'x')}\\012y' is an absolute path;`],
      [['--preset', 'so\nap'], "--preset $'so\\012ap' is not one init can write;"],
      [['--preset', 'it"s'], `--preset 'it"s' is not one init can write;`],
    ] as const) {
      const run = await initIn(cwd, [...args]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`agent-replay: ${said}`);
      // One line of the message, then where the help is.
      expect(run.stderr.split('\n')).toHaveLength(3);
    }
    expect(await readdir(cwd)).toEqual([]);
  });

  it('an absolute folder inside the working directory is said to be absolute, with the relative one to give: not "outside"', async () => {
    // The workflows read dir from the repository's root on GitHub's runner, where this machine's
    // absolute path does not exist (docs/cli.md, "init").
    const cwd = await emptyProject();
    const absolute = await initIn(cwd, ['--dir', join(cwd, 'bots', 'shop suite')]);
    expect(absolute.code).toBe(2);
    expect(absolute.stderr).toContain(
      `--dir '${join(cwd, 'bots', 'shop suite')}' is an absolute path; init takes folders relative to the working directory (the workflows name the suite folder from the repository's root, on GitHub's runner): give --dir 'bots/shop suite'`,
    );
    expect(absolute.stderr).not.toContain('outside');
    const workflows = await initIn(cwd, ['--workflows', join(cwd, '.github', 'workflows')]);
    expect(workflows.code).toBe(2);
    expect(workflows.stderr).toContain('is an absolute path; init takes folders relative to the working directory (the workflows name the suite folder from the repository\'s root, on GitHub\'s runner): give --workflows .github/workflows');
    expect(await readdir(cwd)).toEqual([]);
    // Outside it, an absolute path is still said to be outside.
    const elsewhere = await initIn(cwd, ['--dir', join(cwd, '..', 'elsewhere')]);
    expect(elsewhere.stderr).toContain('is outside the working directory');
  });
});

describe('init for a second suite of the repository (docs/action.md, "Two suites in one repository")', () => {
  /** The YAML lines the next steps give for `file`: from the line that names it to the next line that is not YAML. */
  const stepsFor = (stdout: string, file: string): string => {
    const lines = stdout.split('\n');
    const from = lines.findIndex((l) => l.trim().startsWith(`To the job of ${file}`));
    const steps: string[] = [];
    for (const l of lines.slice(from + 1)) {
      if (!/^ {6}/.test(l)) break;
      steps.push(l);
    }
    return steps.join('\n');
  };

  it("says to add its steps, with its dir, to the workflows of the suite already there: each one added to them is a step GitHub and the Action read", async () => {
    const cwd = await emptyProject();
    expect((await initIn(cwd)).code).toBe(0);
    const run = await initIn(cwd, ['--dir', 'packages/x/.agent-replay']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('2 created, 3 skipped');
    expect(run.stdout).toContain('.github/workflows/agent-replay.yml, .github/workflows/agent-replay-accept.yml, .github/workflows/agent-replay-report.yml were already there for another suite and are left as they are:');
    expect(run.stdout).not.toContain('was already there and is left as it is: check that it runs agent-replay');
    const expected: Record<string, Record<string, unknown>[]> = {
      'agent-replay.yml': [{ dir: 'packages/x/.agent-replay', 'agent-path': '/api/chat' }],
      'agent-replay-accept.yml': [{ mode: 'accept', dir: 'packages/x/.agent-replay', 'comment-key': 'agent-replay' }],
      'agent-replay-report.yml': [
        { pattern: 'agent-replay-results-packages-x-.agent-replay-${{ github.event.workflow_run.head_sha }}-shard-*', path: 'shards-packages-x-.agent-replay' },
        { pattern: 'agent-replay-results-packages-x-.agent-replay-${{ github.event.workflow_run.head_sha }}?(-attempt-*)', path: 'shards-packages-x-.agent-replay' },
        { mode: 'report', dir: 'packages/x/.agent-replay', results: 'shards-packages-x-.agent-replay' },
      ],
    };
    for (const w of WORKFLOWS) {
      const steps = stepsFor(run.stdout, `.github/workflows/${w}`);
      expect(steps, w).not.toBe('');
      // Pasted at the end of the job's steps, as the next steps say.
      const text = `${await readFile(join(cwd, '.github/workflows', w), 'utf8')}${steps}\n`;
      expect(parseWorkflow({ name: w, content: text }, new NoOperationTraceWriter()).context.errors.getErrors().map((e) => e.message), w).toEqual([]);
      const added = Object.values((parse(text) as Workflow).jobs)[0]!.steps.slice(-expected[w]!.length);
      expected[w]!.forEach((inputs, i) => expect(added[i]!.with, w).toMatchObject(inputs));
      for (const step of added.filter((st) => st.uses === ACTION_USES)) {
        const inputs = Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [`INPUT_${k.toUpperCase()}`, String(v).replace(/\$\{\{[^}]*\}\}/g, '1')]));
        expect(readInputs(envInputGetter(inputs)).dir, w).toBe('packages/x/.agent-replay');
      }
    }
    // Init again for that suite: its steps were added, nothing more to say.
    for (const w of WORKFLOWS) await writeFile(join(cwd, '.github/workflows', w), `${await readFile(join(cwd, '.github/workflows', w), 'utf8')}${stepsFor(run.stdout, `.github/workflows/${w}`)}\n`);
    const again = await initIn(cwd, ['--dir', 'packages/x/.agent-replay']);
    expect(again.stdout).not.toContain('for another suite');
    // The default folder as the second suite: its artifacts are named by the commit alone, and so is its download.
    const other = await emptyProject();
    expect((await initIn(other, ['--dir', 'packages/x/.agent-replay'])).code).toBe(0);
    const root = await initIn(other);
    expect(stepsFor(root.stdout, '.github/workflows/agent-replay-report.yml')).toContain('          pattern: agent-replay-results-${{ github.event.workflow_run.head_sha }}?(-attempt-*)\n');
  });

  it('a workflow whose dir is an expression (a matrix over the suites): nothing to add when its list names the folder, else it says it cannot tell and where the folder goes', async () => {
    const cwd = await emptyProject();
    const matrix = (dirs: string[]): string =>
      `name: agent-replay\non: pull_request\njobs:\n  replay:\n    runs-on: ubuntu-latest\n    strategy:\n      matrix:\n        dir: [${dirs.join(', ')}]\n    steps:\n      - uses: ${ACTION_USES}\n        with:\n          dir: \${{ matrix.dir }}\n`;
    await mkdir(join(cwd, '.github/workflows'), { recursive: true });
    await writeFile(join(cwd, '.github/workflows/agent-replay.yml'), matrix(['apps/support/.agent-replay', 'apps/sales/.agent-replay']));
    // Its list names the folder: the matrix runs it, nothing to add (read as two suites' dir before).
    const listed = await initIn(cwd, ['--dir', 'apps/sales/.agent-replay']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain('skipped  .github/workflows/agent-replay.yml');
    expect(listed.stdout).not.toContain('for another suite');
    expect(listed.stdout).not.toContain('cannot read');
    // A folder its list does not name, nor the default folder, which is the end of the others' paths: said, with the expression, and no steps.
    for (const dir of ['apps/billing/.agent-replay', '.agent-replay']) {
      const run = await initIn(cwd, ['--dir', dir]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain(
        `     .github/workflows/agent-replay.yml sets dir: \${{ matrix.dir }}, which init cannot read, and names ${dir} nowhere: add ${dir} to the folders the expression takes (the matrix's list of suites), or add this suite's steps after the steps there (`,
      );
      expect(run.stdout).not.toContain('To the job of .github/workflows/agent-replay.yml');
    }
    // The folder in a YAML comment only (beside the list, or a line of its own) is not in the list;
    // a quoted item, one written ./ and /, and a quoted word of an expression are.
    const commented = matrix(['apps/support/.agent-replay']).replace(']\n', ']   # apps/billing/.agent-replay next quarter\n        # - apps/billing/.agent-replay\n');
    await writeFile(join(cwd, '.github/workflows/agent-replay.yml'), commented);
    const comment = await initIn(cwd, ['--dir', 'apps/billing/.agent-replay']);
    expect(comment.stdout).toContain('which init cannot read, and names apps/billing/.agent-replay nowhere');
    for (const listed of [matrix(['"apps/support/.agent-replay"', "'./apps/billing/.agent-replay/'"]), matrix(['a']).replace('${{ matrix.dir }}', "${{ matrix.billing && 'apps/billing/.agent-replay' || 'apps/support/.agent-replay' }}")]) {
      await writeFile(join(cwd, '.github/workflows/agent-replay.yml'), listed);
      const named = await initIn(cwd, ['--dir', 'apps/billing/.agent-replay']);
      expect(named.stdout, listed).not.toContain('cannot read');
      expect(named.stdout, listed).not.toContain('To the job of .github/workflows/agent-replay.yml');
    }
  });

  it("reads a workflow's dir inputs as YAML: a flow mapping's and a folded value count, a dir: line of a script does not; one that is not valid YAML is read a line at a time", async () => {
    const cwd = await emptyProject();
    await mkdir(join(cwd, '.github/workflows'), { recursive: true });
    const workflow = (steps: string): string => `name: agent-replay\non: pull_request\njobs:\n  replay:\n    runs-on: ubuntu-latest\n    steps:\n${steps}`;
    const sales = ['--dir', 'apps/sales/.agent-replay'];
    const says = async (text: string): Promise<string> => {
      await writeFile(join(cwd, '.github/workflows/agent-replay.yml'), text);
      return (await initIn(cwd, sales)).stdout;
    };
    const toAdd = 'To the job of .github/workflows/agent-replay.yml';
    // The step's with: as a flow mapping, and a folded value: they run the sales suite, nothing to add.
    expect(await says(workflow(`      - uses: ${ACTION_USES}\n        with: { dir: apps/sales/.agent-replay, agent-path: /api/chat }\n`))).not.toContain(toAdd);
    expect(await says(workflow(`      - uses: ${ACTION_USES}\n        with:\n          dir: >-\n            apps/sales/.agent-replay\n`))).not.toContain(toAdd);
    // A dir: line in a script (a block scalar) is no input: the workflow runs the support suite only.
    const script = workflow(`      - run: |\n          cat > suites.yml <<'EOF'\n          dir: apps/sales/.agent-replay\n          EOF\n      - uses: ${ACTION_USES}\n        with:\n          dir: apps/support/.agent-replay\n`);
    expect(await says(script)).toContain(toAdd);
    // Not valid YAML (a tab in the indentation; GitHub does not run it either): its dir: lines are
    // read as written, as before, and one set by an expression is taken as running the suite.
    const broken = workflow(`      - uses: ${ACTION_USES}\n        with:\n\t  dir: apps/support/.agent-replay\n`);
    expect(await says(broken)).toContain(toAdd);
    const brokenMatrix = broken.replace('apps/support/.agent-replay', '${{ matrix.dir }}');
    const matrixSaid = await says(brokenMatrix);
    expect(matrixSaid).not.toContain(toAdd);
    expect(matrixSaid).not.toContain('cannot read');
  });

  it("the report workflow of a suite outside .agent-replay downloads that suite's results artifacts only, and reports as that suite", async () => {
    const cwd = await emptyProject();
    await initIn(cwd, ['--dir', 'apps/sales/.agent-replay']);
    const text = await readFile(join(cwd, '.github/workflows/agent-replay-report.yml'), 'utf8');
    const steps = Object.values((parse(text) as Workflow).jobs)[0]!.steps;
    const patterns = steps.filter((st) => st.uses?.startsWith('actions/download-artifact@')).map((st) => st.with?.pattern as string);
    // the current major, whose action.yml runs on node24 (v4's ran on node20)
    expect(steps.filter((st) => st.uses?.startsWith('actions/download-artifact@')).map((st) => st.uses)).toEqual(['actions/download-artifact@v8', 'actions/download-artifact@v8']);
    // The run's commit ends the folder: apps/sales/.agent-replay-v2's artifacts start as this suite's do.
    expect(patterns).toEqual(['agent-replay-results-apps-sales-.agent-replay-${{ github.event.workflow_run.head_sha }}-shard-*', 'agent-replay-results-apps-sales-.agent-replay-${{ github.event.workflow_run.head_sha }}?(-attempt-*)']);
    expect(text).toContain(
      "pattern: agent-replay-results-apps-sales-.agent-replay-${{ github.event.workflow_run.head_sha }}?(-attempt-*)   # this suite's results artifacts only, by the run's commit (agent-replay-results-apps-sales-.agent-replay-* takes a folder's whose name goes on from this one's): report mode reads every .json file below shards\n",
    );
    const sha = 'a'.repeat(40);
    const sales = 'apps/sales/.agent-replay';
    for (const name of [artifactNameFor(sha, 1, undefined, sales), artifactNameFor(sha, 2, undefined, sales)]) expect(downloadsTake(steps, [name], sha), name).toEqual([name]);
    // A matrix's shards, and never its merge job's record beside them, which holds them (was: both, and the report refused them as overlapping).
    const matrix = [artifactNameFor(sha, 1, undefined, sales), artifactNameFor(sha, 1, { index: 1, total: 2 }, sales), artifactNameFor(sha, 2, { index: 2, total: 2 }, sales)];
    expect(downloadsTake(steps, matrix, sha)).toEqual(matrix.slice(1));
    const others = [
      artifactNameFor(sha, 1),
      artifactNameFor(sha, 1, undefined, 'apps/support/.agent-replay'),
      artifactNameFor(sha, 1, undefined, 'apps/sales/.agent-replay-v2'),
      artifactNameFor(sha, 1, { index: 1, total: 2 }, 'apps/sales/.agent-replay-v2'),
      artifactNameFor('b'.repeat(40), 1, undefined, sales),
    ];
    expect(downloadsTake(steps, others, sha)).toEqual([]);
    expect(steps.find((st) => st.with?.mode === 'report')?.with).toMatchObject({ dir: sales });
  });
});

describe('the workflows init writes', () => {
  async function written(): Promise<Record<string, { text: string; yaml: Workflow }>> {
    const cwd = await emptyProject();
    await initIn(cwd);
    const out: Record<string, { text: string; yaml: Workflow }> = {};
    for (const w of WORKFLOWS) {
      const text = await readFile(join(cwd, '.github/workflows', w), 'utf8');
      out[w] = { text, yaml: parse(text) as Workflow };
    }
    return out;
  }

  it("pass GitHub's workflow schema (@actions/workflow-parser) without an error", async () => {
    const files = await written();
    for (const [name, { text }] of Object.entries(files)) {
      const result = parseWorkflow({ name, content: text }, new NoOperationTraceWriter());
      expect(result.context.errors.getErrors().map((e) => e.message), name).toEqual([]);
      expect(result.value, name).toBeDefined();
    }
    // the parser does catch mistakes: a wrong permission level and a misspelt key
    const broken = files['agent-replay.yml']!.text.replace('pull-requests: write', 'pull-requests: writ').replace('runs-on:', 'runs_on:');
    const errors = parseWorkflow({ name: 'broken.yml', content: broken }, new NoOperationTraceWriter()).context.errors.getErrors();
    expect(errors.map((e) => e.message).join('\n')).toMatch(/Unexpected value 'writ'[\s\S]*runs_on/);
  });

  it("the report workflow downloads the check's results artifacts only (download-artifact's pattern), as docs/action.md's does", async () => {
    const { text } = (await written())['agent-replay-report.yml']!;
    const parsed = parseWorkflow({ name: 'agent-replay-report.yml', content: text }, new NoOperationTraceWriter());
    expect(parsed.context.errors.getErrors().map((e) => e.message)).toEqual([]);
    // The default suite's artifacts are named by the commit alone: its pattern names the run's commit,
    // so that it takes no other suite's (agent-replay-results-* would, and an older record of theirs,
    // without suitePath, would be merged).
    expect(text).toContain("pattern: agent-replay-results-${{ github.event.workflow_run.head_sha }}?(-attempt-*)   # this suite's results artifacts only, by the run's commit (agent-replay-results-* takes every suite's): report mode reads every .json file below shards\n");
    const doc = await readFile('docs/action.md', 'utf8');
    const recipe = /```yaml\n(# \.github\/workflows\/agent-replay-report\.yml[\s\S]*?)```/.exec(doc)?.[1] ?? '';
    expect(recipe).toContain('actions/download-artifact@');
    for (const workflow of [text, recipe]) {
      const wf = parse(workflow) as Workflow;
      const steps = Object.values(wf.jobs).flatMap((j) => j.steps);
      // download-artifact matches names with minimatch, after the run's commit, which GitHub puts in for the expression.
      const sha = 'a'.repeat(40);
      for (const name of [artifactNameFor(sha, 1), artifactNameFor(sha, 2)]) expect(downloadsTake(steps, [name], sha), name).toEqual([name]);
      // A matrix: its shards, with their attempts, and not its merge job's record, which holds them
      // (was: all of them, and the report refused them: "... is a whole run, not a shard").
      const shards = [artifactNameFor(sha, 1, { index: 2, total: 4 }), artifactNameFor(sha, 2, { index: 1, total: 4 })];
      expect(downloadsTake(steps, [artifactNameFor(sha, 1), ...shards, artifactNameFor(sha, 2)], sha), workflow).toEqual(shards);
      // Not another suite's of the same run, nor another commit's, nor another artifact.
      const others = [`agent-replay-baselines-${sha}`, 'coverage-report', 'build-output', artifactNameFor(sha, 1, undefined, 'apps/sales/.agent-replay'), artifactNameFor(sha, 1, { index: 1, total: 2 }, 'apps/sales/.agent-replay'), artifactNameFor('b'.repeat(40), 1)];
      expect(downloadsTake(steps, others, sha), workflow).toEqual([]);
    }
  });

  it('ask for the least privileges each job needs', async () => {
    const files = await written();
    // The check reads the run its comment showed, to compare (docs/evaluations.md, "In the PR comment and job summary"):
    // its artifact needs actions: read, as docs/action.md's deployment workflows ask (without it, a warning every run).
    expect(files['agent-replay.yml']!.yaml.permissions).toEqual({ contents: 'read', 'pull-requests': 'write', actions: 'read' });
    expect(files['agent-replay-accept.yml']!.yaml.permissions).toEqual({ contents: 'write', 'pull-requests': 'write', actions: 'read' });
    // The report compares the pull request's suite with its base (docs/action.md, "Suite edited"): contents: read.
    expect(files['agent-replay-report.yml']!.yaml.permissions).toEqual({ contents: 'read', 'pull-requests': 'write', actions: 'read' });
  });

  it('pin every action to a version tag, ours to this version', async () => {
    const files = await written();
    const uses = Object.values(files).flatMap((f) => Object.values(f.yaml.jobs).flatMap((j) => j.steps.map((s) => s.uses).filter((u): u is string => u !== undefined)));
    expect(uses.length).toBeGreaterThan(0);
    for (const u of uses) expect(u).toMatch(/^[\w.-]+\/[\w.-]+@v\d+(\.\d+\.\d+)?$/);
    expect(ACTION_USES).toBe(`agent-replay/agent-replay@v${TOOL.version}`);
    expect(uses.filter((u) => u === ACTION_USES)).toHaveLength(3);
  });

  it('give each input only to a mode that reads it: the Action reads every step without an input error', async () => {
    const files = await written();
    const steps = Object.values(files).flatMap((f) => Object.values(f.yaml.jobs).flatMap((j) => j.steps.filter((s) => s.uses === ACTION_USES)));
    expect(steps).toHaveLength(3);
    for (const step of steps) {
      const inputs = Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [`INPUT_${k.toUpperCase()}`, String(v).replace(/\$\{\{[^}]*\}\}/g, '1')]));
      expect(() => readInputs(envInputGetter(inputs)), JSON.stringify(step.with)).not.toThrow();
    }
  });

  it('the check replays the deployed commit of a successful deployment, one run per commit and environment', async () => {
    const check = (await written())['agent-replay.yml']!;
    expect(Object.keys(check.yaml.on)).toEqual(['deployment_status']);
    expect(check.yaml.jobs.replay!.if).toBe("github.event.deployment_status.state == 'success'");
    expect(check.yaml.jobs.replay!.steps[0]).toMatchObject({ uses: 'actions/checkout@v7', with: { ref: '${{ github.event.deployment.sha }}' } });
    expect(check.text).toContain('group: agent-replay-${{ github.event.deployment.sha }}-${{ github.event.deployment.environment }}');
    expect(check.yaml.jobs.replay!.steps[1]!.with).toMatchObject({ 'agent-path': '/api/chat', 'wait-for-agent': 60 });
  });
});
