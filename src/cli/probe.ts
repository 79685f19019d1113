// `agent-replay probe "message"`: one message in one fresh session against the configured agent,
// the way the Tester page of the seeds probes a single message. It prints the reply, the route
// trace (the welcome turn's route when the agent has one, then conversation, stage, persona tag
// and off-track signals) and the verdict with its detail line; `--save LABEL` keeps it as
// `fixtures/<label>.yml` in the suite folder.
//
// Everything that decides is the engine's: the fixture is built by writing the YAML that --save
// writes and reading it back with the suite loader (so a probe checks exactly what the saved
// fixture will check), and it is replayed by the same runner, agent client, assertions and judge
// as `run`, with the same redaction of secrets.
//
// Exit status: 0 the probe ran and the verdict is pass (or not evaluated: never a failure);
// 1 the verdict is fail, or the agent call errored (no reply); 2 usage or configuration error
// (nothing was sent), agent not ready after --wait-for-agent, or --save refused.

import { randomUUID } from 'node:crypto';
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { AGENT_PRESET_NAMES, type AgentPreset, type Config } from '../config.js';
import type { AgentClient, AgentOutcome, Assertion, Fixture, FixtureRecord, JsonValue, Judge, RegexEvaluator, SingleAssertion } from '../types.js';
import { agentHost, judgeName, runRegex, UsageError, type EngineDeps } from '../engine.js';
import { urlEndpoint } from '../endpoint.js';
import { causeLine, causeOf } from '../evaluate/causes.js';
import { cliWords, cliWordsOf } from '../report/terminal.js';
import { createHttpAgentClient, toolCallsHint } from '../agent/index.js';
import { waitForAgent } from '../agent/ready.js';
import { PROBE_DETAIL } from '../assertions/index.js';
import { createConfiguredJudge } from '../judge/index.js';
import { NO_BASELINES, replay } from '../replay/index.js';
import { makeRedactor } from '../secrets.js';
import { TOOL } from '../version.js';
import { durationText, shownJson, shownShellWord, terminalJson } from '../words.js';
import { EXIT, UserError } from '../errors.js';
import { createFileExclusively } from '../fs-safe.js';
import { isValidLabel, LABEL_RULE, loadSuite, loadSuiteConfig, noAgentUrlIssue, type ConfigOverrides } from '../suite/index.js';
import { checkFixtureFile, DEFAULT_THRESHOLD } from '../suite/fixtures.js';
import { freeSuggestion, takenLabels, windowsNameIssue, type TakenLabels } from '../suite/labels.js';
import { loadYamlPackage, readYaml, yamlPackage } from '../suite/yaml/index.js';
import { terminalBlock, terminalLine } from '../report/escape.js';
import { terminalIssue } from '../report/config-errors.js';
import { printConfigIssues, type CliIO } from './output.js';
import { networkFrom, type Network } from '../http/network.js';

/** The forms --assert accepts, as the usage text and every --assert error name them. */
export const ASSERT_FORMS = 'contains:TEXT, regex:/PATTERN/FLAGS or judge:"CRITERION"';

export interface ProbeOptions {
  message: string;
  dir: string;
  agentUrl?: string;
  judgeUrl?: string;
  persona?: string;
  assert?: string;
  threshold?: string;
  save?: string;
  /** Seconds to wait for the agent (flag); undefined: agent.waitForAgent of config.yml. */
  waitForAgent?: number;
  /** `--preset NAME`: the protocol to speak instead of config.yml's agent.preset. */
  preset?: string;
}

/** What a probe is: the fixture `--save` would write. */
export type ProbeFixture = Pick<Fixture, 'label' | 'message' | 'persona' | 'assertion'>;

/** One pair of double quotes around the whole value is the shell's, not the text's. */
function unquote(text: string): string {
  return text.length >= 2 && text.startsWith('"') && text.endsWith('"') ? text.slice(1, -1) : text;
}

/**
 * `contains:TEXT`, `regex:/PATTERN/FLAGS`, `judge:"CRITERION"` (one pair of surrounding double
 * quotes is dropped from TEXT and CRITERION). A pattern that does not compile is refused here, as
 * the Tester refuses it before the request fires: nothing would be checked.
 */
function parseAssert(text: string, threshold: string | undefined): Assertion {
  const colon = text.indexOf(':');
  const kind = colon === -1 ? text : text.slice(0, colon);
  const value = colon === -1 ? '' : text.slice(colon + 1);
  const bad = (why: string): UsageError => new UsageError(`--assert ${shownJson(text)} ${why}; use ${ASSERT_FORMS}`);
  if (kind !== 'judge' && threshold !== undefined) throw new UsageError('--threshold only applies to a judge assertion (--assert judge:"CRITERION")');
  if (kind === 'contains') {
    const needle = unquote(value);
    if (needle === '') throw bad('has no text to look for');
    return { kind: 'contains', value: needle };
  }
  if (kind === 'regex') {
    const last = value.lastIndexOf('/');
    if (!value.startsWith('/') || last < 1) throw bad('needs the pattern between slashes, e.g. regex:/30 days/i');
    const pattern = value.slice(1, last);
    const flags = value.slice(last + 1);
    if (pattern === '') throw bad('has an empty pattern');
    try {
      new RegExp(pattern, flags); // compiling never runs the pattern: safe outside the worker pool
    } catch (e) {
      throw new UsageError(`--assert regex /${pattern}/${flags} does not compile: ${(e as Error).message}; nothing was sent. Correct the pattern (JavaScript RegExp syntax, flags among d g i m s u v y)`);
    }
    return { kind: 'regex', pattern, flags };
  }
  if (kind === 'judge') {
    const criterion = unquote(value).trim();
    if (criterion === '') throw bad('has no criterion');
    return { kind: 'judge', criterion, threshold: parseThreshold(threshold) };
  }
  throw bad(colon === -1 ? 'has no kind' : `has the unknown kind "${kind}"`);
}

function parseThreshold(text: string | undefined): number {
  if (text === undefined) return DEFAULT_THRESHOLD;
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1) throw new UsageError(`--threshold must be a score from 0 to 1, got "${terminalLine(text)}"`);
  return n;
}

/**
 * Invisible or ambiguous characters a reader of the file could not see, or that a YAML reader
 * could take for a line break or refuse (DEL and C1 controls, NEL, line and paragraph separators,
 * bidi controls, BOM, non-characters): written as \uXXXX escapes. Every string is double-quoted,
 * so each of these is inside a double-quoted scalar, where the escape is valid YAML.
 */
const INVISIBLE = /[\u007F-\u00A0\u00AD\u061C\u180E\u200B-\u200F\u2028-\u202E\u2060-\u2064\u2066-\u206F\uFEFF\uFFF9-\uFFFB\uFFFE\uFFFF]/g;

/** One check as a fixture file writes it. */
function assertYaml(a: SingleAssertion): Record<string, JsonValue> {
  if (a.kind === 'contains') return { contains: a.value };
  if (a.kind === 'regex') return { regex: a.pattern, ...(a.flags === '' ? {} : { flags: a.flags }) };
  if (a.kind === 'maxLatency') return { maxLatencyMs: a.ms };
  if (a.kind === 'toolCalled' || a.kind === 'toolNotCalled') return { [a.kind]: { tool: a.tool, ...(a.input === undefined ? {} : { input: a.input }), ...(a.match === 'subset' ? {} : { match: a.match }) } };
  return { judge: a.criterion, threshold: a.threshold };
}

/**
 * The fixture file --save writes. Every string is double-quoted by the `yaml` emitter, so no
 * message reads back as anything else (`yes`, `0b101`, `null`, `#`, `: `, a leading space, a
 * trailing newline): `validate` reads back exactly the text that was probed. The `yaml` package
 * must be loaded (loadYamlPackage; runProbe does).
 */
export function fixtureYaml(f: ProbeFixture, savedAt: string): string {
  const { stringify } = yamlPackage();
  const a = f.assertion;
  const assert = a === null ? undefined : a.kind === 'all' ? a.assertions.map(assertYaml) : assertYaml(a);
  const doc = { label: f.label, message: f.message, ...(f.persona === null ? {} : { persona: f.persona }), ...(assert ? { assert } : {}) };
  const body = stringify(doc, { defaultStringType: 'QUOTE_DOUBLE', defaultKeyType: 'PLAIN', lineWidth: 0 }).replace(
    INVISIBLE,
    (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`,
  );
  return `# Saved by agent-replay probe at ${savedAt}. It has no baseline yet: run the suite and accept\n# the reply you want to keep (agent-replay run, then agent-replay accept).\n${body}`;
}

/**
 * The probe as the suite loader reads it from the text --save writes; a usage error lists what it
 * refuses, each issue as the terminal shows it (terminalIssue: a line break in the file's name as
 * ` ⏎ `, not a second line).
 */
export function loadProbeFixture(shown: string, text: string): Fixture {
  const parsed = readYaml(shown, text);
  const checked = parsed.src === null ? { fixtures: [], errors: parsed.errors } : checkFixtureFile(parsed.src, parsed.data);
  const fixture = checked.fixtures[0];
  if (checked.errors.length > 0 || fixture === undefined) {
    throw new UsageError(`the probe is not a valid fixture:\n${checked.errors.map((e) => `  ${terminalIssue(e).replace(/\n/g, '\n  ')}`).join('\n')}`);
  }
  return fixture;
}

export interface ProbeResult {
  session: string;
  record: FixtureRecord;
  /** Off-track signals of the message turn, as one-line JSON texts (redacted). */
  offTrack: string[];
  /** The welcome turn, when the agent has one: its route and signals (redacted). */
  welcome: { route: { conversation: string; stage: string } | null; offTrack: string[] } | null;
  /** What the message turn's response says of its tool calls (toolCallsHint, redacted); null: an agent client of a test's own. */
  toolCalls: string | null;
  agentHost: string | null;
  /** The agent's URL without credentials or query (urlEndpoint), which an error's cause names. */
  agentEndpoint: string | null;
  judgeName: string | null;
}

const ANSI = { reset: '\u001b[0m', bold: '\u001b[1m', red: '\u001b[31m', green: '\u001b[32m', grey: '\u001b[90m' } as const;

/** The off-track signals (each JSON, shownJson's), each isolated whole as JSON (terminalJson), `; ` between. */
function signals(list: readonly string[]): string {
  return list.length === 0 ? 'none' : list.map((s) => terminalJson(s)).join('; ');
}

/**
 * A cause that says to check agent.preset, when the flag --preset gave the preset: the flag the
 * user gave is named, as config.yml's agent.preset was not used (docs/cli.md, probe).
 */
function presetWords(text: string, preset: string | undefined): string {
  return preset === undefined ? text : text.replace(/\bagent\.preset\b/g, `--preset ${preset}`);
}

/**
 * "session ... · agent host · reply in 614 ms (welcome turn 608 ms)": the time is the reply's
 * latency, the message turn's, which a latency check reads (docs/latency.md), not the probe's wall
 * time with its welcome turn; without one measured (an errored probe), the time in all.
 */
export function probeFacts(r: Pick<ProbeResult, 'session' | 'agentHost' | 'record'>): string {
  const f = r.record;
  const welcome = typeof f.welcomeLatencyMs === 'number' ? ` (welcome turn ${durationText(f.welcomeLatencyMs)})` : '';
  const time = typeof f.latencyMs === 'number' ? `reply in ${durationText(f.latencyMs)}${welcome}` : `${durationText(f.durationMs)} in all`;
  return [`session ${terminalLine(r.session)}`, ...(r.agentHost ? [`agent ${terminalLine(r.agentHost)}`] : []), time].join(' · ');
}

/** The probe as the terminal shows it. Pure; agent text is flattened and stripped of controls. */
function renderProbe(r: ProbeResult, opts: { color: boolean; preset: string | undefined; configName: string }): string {
  const paint = (c: keyof typeof ANSI, t: string): string => (opts.color ? `${ANSI[c]}${t}${ANSI.reset}` : t);
  const f = r.record;
  const lines = [paint('bold', `probe: ${terminalLine(f.message)}`), paint('grey', probeFacts(r)), ''];
  if (f.errored) {
    lines.push(`${paint('bold', 'errored')}: ${terminalLine(cliWordsOf(f.error ?? '', opts.configName))}`);
    // The cause and its fix, as run's summary says them for the same error (evaluate/causes.ts), in the CLI's words.
    const cause = causeOf(f, r.agentEndpoint, false, false, undefined, opts.configName);
    if (cause !== null) lines.push(paint('grey', `  cause: ${terminalLine(presetWords(cliWordsOf(causeLine({ ...cause, labels: [f.label] }, 1), opts.configName), opts.preset))}`));
    lines.push('no reply, so no route trace and no verdict; probe exits 1 (in a run, an errored fixture is not verified, and the default gate fails on it).');
    return `${lines.join('\n')}\n`;
  }
  const reply = terminalBlock(f.reply ?? '');
  lines.push(paint('bold', 'reply'));
  // One line at a time: a reply may have more lines than push(...lines) takes arguments (an 8 MiB answer of newlines).
  if (reply === '') lines.push('  (empty)');
  else for (const l of reply.split('\n')) lines.push(`  ${l}`);
  lines.push('');
  lines.push(paint('bold', 'route trace'));
  const row = (name: string, value: string): string => `  ${name.padEnd(13)}${value}`;
  if (r.welcome !== null) {
    const w = r.welcome.route;
    lines.push(row('welcome', w === null ? '(route not reported)' : `${terminalLine(w.conversation)} / ${terminalLine(w.stage)}`));
    if (r.welcome.offTrack.length > 0) lines.push(row('  off-track', signals(r.welcome.offTrack)));
  }
  lines.push(row('conversation', f.route === null ? '(not reported)' : terminalLine(f.route.conversation)));
  lines.push(row('stage', f.route === null ? '(not reported)' : terminalLine(f.route.stage)));
  lines.push(row('persona', f.persona === null ? '(none)' : `${terminalLine(f.persona)} (a tag: it does not change routing)`));
  lines.push(row('off-track', signals(r.offTrack)));
  if (r.toolCalls !== null) lines.push(row('tool calls', terminalLine(r.toolCalls)));
  lines.push('');
  lines.push(verdictLine(f, paint));
  if (f.assertion?.kind === 'judge' && r.judgeName) lines.push(paint('grey', `  judge: ${terminalLine(r.judgeName)}`));
  return `${lines.join('\n')}\n`;
}

/**
 * Probe's verdict line: "verdict pass (probe): nothing to check" without an assertion, else the
 * verdict and the check's detail, a judge's fix in the CLI's words (--judge-url, cliWords). `paint`
 * colours a word (none by default).
 */
export function verdictLine(f: Pick<FixtureRecord, 'assertion' | 'verdict' | 'detail'>, paint: (c: keyof typeof ANSI, t: string) => string = (_c, t) => t): string {
  // A judge's fix in the CLI's words (--judge-url), as the run's summary says it (cliWords).
  const detail = terminalLine(cliWords(f.detail));
  if (f.assertion === null) return `${paint('bold', 'verdict')} ${paint('green', 'pass (probe)')}: nothing to check${detail === PROBE_DETAIL ? '' : ` (${detail})`}`;
  const word = f.verdict === 'pass' ? paint('green', 'pass') : f.verdict === 'fail' ? paint('red', 'fail') : paint('grey', 'not evaluated (not a failure)');
  return `${paint('bold', 'verdict')} ${word}: ${detail}`;
}

/** Records what the agent client answered, for the route trace the record does not keep. */
function tap(agent: AgentClient, seen: AgentOutcome[]): AgentClient {
  return {
    converse: async (request) => {
      const outcome = await agent.converse(request);
      seen.push(outcome);
      return outcome;
    },
    session: (request) => agent.session(request),
    close: () => agent.close(),
  };
}

/**
 * The labels a --save label suggested for an invalid one must not be: the suite's (as far as it
 * loads: a suite with errors lists none) and the files fixtures/ holds, which probe never overwrites.
 */
async function savedLabels(o: ProbeOptions, io: CliIO, suiteDir: string): Promise<TakenLabels> {
  const loaded = await loadSuite({ dir: o.dir, env: io.env, cwd: io.cwd });
  const items = [...(loaded.suite?.fixtures ?? []), ...(loaded.suite?.personas ?? [])].map((f) => f.label);
  const files = await readdir(path.join(suiteDir, 'fixtures')).catch(() => [] as string[]);
  return takenLabels([...items, ...files.filter((f) => f.endsWith('.yml')).map((f) => f.slice(0, -'.yml'.length))]);
}

/** Where --save writes, checked before anything is sent: a refusal costs nothing. */
async function checkSave(label: string, o: ProbeOptions, io: CliIO): Promise<{ target: string; shown: string; suiteDir: string }> {
  const suiteDir = path.resolve(io.cwd, o.dir);
  if (!isValidLabel(label)) {
    // The fix a fixture's label gets (docs/fixtures.md, "A fixture"): a valid one close to it the suite does not use, as the flag to paste.
    const close = freeSuggestion(label, await savedLabels(o, io, suiteDir));
    throw new UsageError(`--save ${shownJson(label)} is not a valid label: a label is ${LABEL_RULE} (it names the fixture and its baseline file)${close === null ? '' : `; use --save ${shownShellWord(close.label)}${close.note}`}`);
  }
  // A name Windows refuses (docs/fixtures.md, "A fixture"): the suite would not check out there.
  if (windowsNameIssue(label) !== null) {
    const windows = windowsNameIssue(label, await savedLabels(o, io, suiteDir));
    if (windows !== null) throw new UsageError(`--save ${windows.message}; ${windows.fix.replace('rename it, e.g. label: ', 'use --save ')}`);
  }
  const target = path.join(suiteDir, 'fixtures', `${label}.yml`);
  const shown = path.relative(io.cwd, target).split(path.sep).join('/');
  if (await lstat(target).then(() => true, () => false)) {
    throw new UserError(`--save ${label}: ${terminalLine(shown)} exists; probe never overwrites a file. Choose another label (nothing was sent)`);
  }
  const loaded = await loadSuite({ dir: o.dir, env: io.env, cwd: io.cwd });
  // A suite with no fixture yet is where a first probe is saved; any other error must be fixed first,
  // else the labels the new one must not repeat are unknown.
  const blocking = loaded.errors.filter((e) => !e.message.startsWith('no fixtures'));
  if (blocking.length > 0) {
    printConfigIssues(io, blocking, []);
    throw new UserError(`--save adds a fixture to ${terminalLine(o.dir)}, which has configuration errors (above); fix them first (npx agent-replay validate --dir ${shownShellWord(o.dir)})`);
  }
  const taken = [...(loaded.suite?.fixtures ?? []), ...(loaded.suite?.personas ?? [])].find((f) => f.label.toLowerCase() === label.toLowerCase());
  if (taken) {
    throw new UserError(`--save ${label}: the label ${shownJson(taken.label)} is already used at ${terminalLine(taken.file)}:${taken.line}; labels are unique across the suite, choose another (nothing was sent)`);
  }
  return { target, shown, suiteDir };
}

function overridesOf(o: ProbeOptions): ConfigOverrides {
  return {
    ...(o.agentUrl ? { agentUrl: o.agentUrl } : {}),
    ...(o.judgeUrl ? { judge: { baseUrl: o.judgeUrl } } : {}),
    ...(o.preset !== undefined ? { agentPreset: parsePreset(o.preset) } : {}),
  };
}

/** `--preset NAME`: one of the agent presets, else a usage error listing them (nothing is sent). */
function parsePreset(value: string): AgentPreset {
  const found = AGENT_PRESET_NAMES.find((p) => p === value);
  if (found === undefined) throw new UsageError(`--preset ${shownShellWord(value)} is not an agent preset; use one of: ${AGENT_PRESET_NAMES.join(', ')}`);
  return found;
}

/** `warn`: what the agent client says once for the probe (a welcome with nothing at its own reply path), redacted. */
async function probeOnce(config: Config, fixture: Fixture, deps: EngineDeps, network: Network, warn: (message: string) => void, configName: string): Promise<ProbeResult> {
  const redact = makeRedactor(config.secrets);
  const seen: AgentOutcome[] = [];
  const session = `agent-replay-probe-${randomUUID().slice(0, 8)}`;
  let agent: AgentClient | null = null;
  let regex: RegexEvaluator | null = null;
  let judge: Judge | null = null;
  let toolCalls: string | null = null;
  const observe = (a: { turn: 'welcome' | 'message'; json: unknown; mapping: Config['agent']['mapping'] }): void => {
    if (a.turn !== 'message') return;
    const hint = toolCallsHint(a.json, a.mapping);
    // An agent traced for its tool calls (docs/traces.md, "Fixtures") reports none in its response:
    // a run reads them from its spans, which probe, with no receiver of its own, does not.
    toolCalls = config.traces != null && hint.startsWith('not reported') ? `${hint}; a run reads the calls from the agent's spans (traces: in ${configName}), which probe does not read` : hint;
  };
  try {
    agent = deps.makeAgent ? deps.makeAgent(config) : createHttpAgentClient(config.agent, { clock: deps.clock, observe, network, timer: deps.agentTimer, onWarning: (m) => warn(redact(m)), configName });
    // As a run matches it (one worker at most: one pattern): on the main thread when it needs no worker.
    regex = runRegex(config, deps, 1, { fixtures: [fixture], personas: [] });
    judge = deps.makeJudge ? deps.makeJudge(config) : config.judge ? createConfiguredJudge(config.judge, { clock: deps.clock, network }) : null;
    const estimate = { usd: 0, capUsd: config.cost.capUsd, aboveCap: false, confirmed: false };
    const run = await replay({ fixtures: [fixture], personas: [], baselines: NO_BASELINES }, { agent: tap(agent, seen), regex, judge, configName, redact, wallClock: deps.wallClock, sessionId: () => session }, {
      concurrency: 1,
      estimate,
      commit: null,
      tool: { ...TOOL },
      agentHost: agentHost(config.agent.url, redact),
      agentEndpoint: urlEndpoint(config.agent.url, redact),
      judgeName: judge?.name ?? judgeName(config),
    });
    const record = run.fixtures[0] as FixtureRecord;
    const answered = seen[0];
    const json = (v: unknown): string => redact(shownJson(v) ?? String(v));
    const replied = answered?.kind === 'replied' ? answered : null;
    const w = replied?.welcome ?? null;
    return {
      session,
      record,
      offTrack: replied?.offTrack.map(json) ?? [],
      welcome: w === null ? null : { route: w.route === null ? null : { conversation: redact(w.route.conversation), stage: redact(w.route.stage) }, offTrack: w.offTrack.map(json) },
      toolCalls: toolCalls === null ? null : redact(toolCalls),
      agentHost: run.agent.host,
      agentEndpoint: run.agent.endpoint ?? null,
      judgeName: run.judge.name,
    };
  } finally {
    await Promise.allSettled([agent?.close(), regex?.close(), judge?.close()]);
  }
}

/**
 * What keeps a reply of the fixture just saved: the two commands as they paste, with the suite
 * folder and the agent and judge this probe reached (docs/cli.md, probe). A URL that carries
 * credentials or a query is not echoed; its place is named. `configName`: the suite's config file
 * (config.yml, or config.yaml), where a --preset run does not take must be set.
 */
function keepReplyStep(o: ProbeOptions, label: string, configName: string): string {
  const shown = (flag: string, url: string): string => {
    let plain = false;
    try {
      const u = new URL(url);
      plain = u.username === '' && u.password === '' && u.search === '';
    } catch {
      plain = false;
    }
    return ` ${flag} ${plain ? shownShellWord(url) : `<the ${flag} you gave probe>`}`;
  };
  const dir = ` --dir ${shownShellWord(o.dir)} --only ${label}`;
  const urls = `${o.agentUrl ? shown('--agent-url', o.agentUrl) : ''}${o.judgeUrl ? shown('--judge-url', o.judgeUrl) : ''}`;
  const preset = o.preset === undefined ? '' : `\nrun has no --preset: set agent.preset: ${o.preset} in ${configName} first.`;
  return `It has no baseline yet; to keep a reply, run it, then accept it:\n  npx agent-replay run${dir}${urls}\n  npx agent-replay accept${dir}${preset}`;
}

export async function runProbe(o: ProbeOptions, io: CliIO): Promise<number> {
  if (o.message.trim() === '') throw new UsageError('probe needs a message: agent-replay probe "Can I get my money back?"');
  if (o.persona !== undefined && o.persona.trim() === '') throw new UsageError('--persona needs a tag, e.g. --persona returning-customer');
  const assertion = o.assert === undefined ? null : parseAssert(o.assert, o.threshold);
  if (o.assert === undefined && o.threshold !== undefined) throw new UsageError('--threshold only applies to a judge assertion (--assert judge:"CRITERION")');
  const label = o.save ?? 'probe';
  const shownFile = `${o.dir.replace(/\/+$/, '')}/fixtures/${label}.yml`;
  const probe: ProbeFixture = { label, message: o.message, persona: o.persona ?? null, assertion };
  const savedAt = (io.now?.() ?? new Date()).toISOString();
  // probe writes YAML with the `yaml` package (imported on first need, suite/yaml/package.ts).
  await loadYamlPackage();
  const text = fixtureYaml(probe, savedAt);

  const loaded = await loadSuiteConfig({ dir: o.dir, env: io.env, cwd: io.cwd, overrides: overridesOf(o) });
  if (loaded.errors.length > 0 || loaded.config === null) {
    printConfigIssues(io, loaded.errors, loaded.warnings);
    return EXIT.usage;
  }
  printConfigIssues(io, [], loaded.warnings);
  const config = loaded.config;
  const deps = io.engine ?? {};
  if (config.agent.url === null && deps.makeAgent === undefined) {
    printConfigIssues(io, [noAgentUrlIssue(o.dir, io.cwd, 'or pass --agent-url URL')], []);
    return EXIT.usage;
  }
  const save = o.save === undefined ? null : await checkSave(o.save, o, io);
  const fixture = loadProbeFixture(save?.shown ?? shownFile, text);

  // As a run does: directly, or through the proxy the environment names (docs/configuration.md, "Behind a proxy").
  const network = await networkFrom(io.env);
  const wait = o.waitForAgent ?? config.agent.waitForAgent;
  if (wait > 0 && config.agent.url !== null) {
    await waitForAgent({ url: config.agent.url, headers: config.agent.headers, seconds: wait, clock: deps.clock, log: (line) => io.stderr(`${cliWords(line)}\n`), network, redact: makeRedactor(config.secrets) });
  }
  // As run says them (src/cli/main.ts): agent text in a warning is shown with its controls escaped.
  const result = await probeOnce(config, fixture, deps, network, (m) => io.stderr(`warning: ${terminalLine(m)}\n`), loaded.configName);
  io.stdout(renderProbe(result, { color: io.color, preset: o.preset, configName: loaded.configName }));

  const failed = result.record.errored || result.record.verdict === 'fail';
  if (save !== null) {
    if (result.record.errored) {
      io.stdout(`\nnot saved: the agent did not reply, so ${save.shown} was not written; probe again once the agent answers.\n`);
    } else if ((await createFileExclusively(save.target, text, { within: save.suiteDir })) === 'exists') {
      io.stderr(`\nnot saved: ${save.shown} appeared while probing; probe never overwrites a file.\n`);
      return EXIT.usage;
    } else {
      io.stdout(`\nsaved ${save.shown} (label ${label}). ${keepReplyStep(o, label, loaded.configName)}\n`);
    }
  }
  return failed ? EXIT.gate : EXIT.ok;
}
