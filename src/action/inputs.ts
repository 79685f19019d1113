// Action inputs, read once into one readonly typed object. Enum inputs are checked against an
// `as const` list; a bad value is rejected quoting it and the allowed set.

import { UserError } from '../errors.js';
import { FAIL_ON_CONDITIONS, JUDGE_PROVIDERS, type FailOnCondition } from '../types.js';
import { parseFailOn, parseShard } from '../evaluate/index.js';
import { nearestName } from '../suite/issues.js';
import { MAX_WAIT_FOR_AGENT_S } from '../agent/ready.js';
import { MAX_REPEAT } from '../suite/repeat.js';
import { MAX_CONCURRENCY } from '../suite/config/shared.js';
import { windowsPathRefusal } from '../windows-path.js';
import { shownJson, terminalLine, wholeNumberText } from '../words.js';
import { suiteName, suiteSlug } from './context.js';
import { clip } from '../report/escape.js';
import * as log from './log.js';

const MODES = ['check', 'accept', 'report'] as const;
export type Mode = (typeof MODES)[number];
export { JUDGE_PROVIDERS };

export interface Inputs {
  readonly mode: Mode;
  readonly agentUrl: string | null;
  readonly agentHeaders: Readonly<Record<string, string>>;
  /** Appended to a deployment's environment_url (deployment_status events); always starts with "/"; null: none. */
  readonly agentPath: string | null;
  /** Seconds to wait for the agent to answer before the first fixture; null: the config's agent.waitForAgent. */
  readonly waitForAgent: number | null;
  readonly dir: string;
  readonly judgeProvider: (typeof JUDGE_PROVIDERS)[number] | null;
  readonly judgeBaseUrl: string | null;
  readonly judgeModel: string | null;
  readonly judgeApiKey: string | null;
  readonly githubToken: string;
  readonly comment: boolean;
  readonly failOn: readonly FailOnCondition[];
  readonly costCap: number | null;
  readonly confirmCost: boolean;
  readonly concurrency: number | null;
  /** Check mode: every item's attempts for this run (the CLI's --repeat, docs/statistics.md); null: config.yml's. */
  readonly repeat: number | null;
  /** Check mode: every item's most attempts for this run (the CLI's --repeat-max); null: config.yml's. */
  readonly repeatMax: number | null;
  readonly acceptLabel: string;
  readonly confirmLabel: string;
  /** Names the sticky comment; null: the workflow's name. */
  readonly commentKey: string | null;
  readonly resultsPath: string;
  readonly results: readonly string[];
  readonly prNumber: number | null;
  /** Check mode (docs/action.md, "Shards: one suite over a CI matrix"): replay shard `index` (1-based) of `total`; null: the whole suite. */
  readonly shard: { readonly index: number; readonly total: number } | null;
  /** Check mode with `shard`: a results.json whose durations balance the shards; null: the last default-branch run's, if found. */
  readonly timings: string | null;
  /** Report mode: a merge lacking shards does not fail the gate. */
  readonly allowIncomplete: boolean;
  /** Accept mode: the check workflow's file name, dispatched on the branch after a baseline commit; null: no dispatch. */
  readonly checkWorkflow: string | null;
}

export class InputError extends UserError {
  override name = 'InputError';
}

type Get = (name: string) => string;

/**
 * An input's value as a refusal quotes it: on the annotation's one line, a line break of a block
 * scalar (`fail-on: |`) shown as ` ⏎ ` and a control character as its escape (terminalLine).
 */
const quoted = (value: string): string => `"${terminalLine(value)}"`;

/** Reads `INPUT_<NAME>` the way @actions/core does (spaces become underscores, upper case, trimmed). */
export function envInputGetter(env: Record<string, string | undefined>): Get {
  return (name) => (env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] ?? '').trim();
}

function oneOf<T extends string>(name: string, value: string, allowed: readonly T[], fallback: T): T {
  if (value === '') return fallback;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  // A value written in another case (`mode: Check`) or misspelt names the one meant, by the rule of
  // every hint (nearestName, as fail-on's conditions); the value stays refused as written: values are lower case.
  const meant = nearestName(value, allowed);
  throw new InputError(`input ${name}: ${quoted(value)} is not allowed${meant === null ? '; use' : `: did you mean "${meant}"? Use`} one of: ${allowed.join(', ')}`);
}

function bool(name: string, value: string, fallback: boolean): boolean {
  if (value === '') return fallback;
  if (/^(true|yes|on|1)$/i.test(value)) return true;
  if (/^(false|no|off|0)$/i.test(value)) return false;
  throw new InputError(`input ${name}: ${quoted(value)} is not a boolean; use true or false`);
}

function positiveNumber(name: string, value: string, integer: boolean): number | null {
  if (value === '') return null;
  const n = integer ? (wholeNumberText(value) ?? Number.NaN) : Number(value);
  if (!Number.isFinite(n) || n < 0 || (integer && n < 1)) {
    throw new InputError(`input ${name}: ${quoted(value)} is not ${integer ? 'a whole number of at least 1' : 'a non-negative number'}`);
  }
  return n;
}

/**
 * `pr-number`: report mode's pull request, a whole number of at least 1; null when empty. init's
 * report workflow and docs/action.md's recipe give it from the `pr-number` file of the artifact the
 * checked run uploaded, a fork's to write: one that is no such number is ignored with a warning
 * rather than fail the report, and the pull request is found as without it, from the event and
 * GitHub, and held to the run's head either way (docs/security.md).
 */
function prNumberInput(value: string): number | null {
  if (value === '') return null;
  const n = wholeNumberText(value);
  if (n !== null && n >= 1) return n;
  log.warning(
    `input pr-number: ${shownJson(clip(value, 80))} is not a pull request's number, so it is ignored: the pull request is the one the workflow_run event names, else the open one of the run's head branch. ` +
      "In a workflow_run report it is read from the pr-number file of the checked run's artifact, which check mode writes with its pull request's number",
  );
  return null;
}

/** `concurrency`: a whole number from 1 to MAX_CONCURRENCY, as agent.concurrency; null when empty. */
function concurrencyInput(value: string): number | null {
  if (value === '') return null;
  const n = wholeNumberText(value);
  if (n === null || n < 1 || n > MAX_CONCURRENCY) throw new InputError(`input concurrency: ${quoted(value)} is not a whole number from 1 to ${MAX_CONCURRENCY}`);
  return n;
}

/** `repeat` and `repeat-max`: a whole number from 1 to MAX_REPEAT; null when empty. */
function attemptsInput(name: string, value: string): number | null {
  if (value === '') return null;
  const n = wholeNumberText(value);
  if (n === null || n < 1 || n > MAX_REPEAT) throw new InputError(`input ${name}: ${quoted(value)} is not a whole number from 1 to ${MAX_REPEAT}`);
  return n;
}

/** The path of the agent under a deployment's address: "/api/chat"; "api/chat" gets its leading slash. */
function agentPathInput(value: string): string | null {
  if (value === '') return null;
  if (/[\s?#]/.test(value) || /^[a-z][a-z0-9+.-]*:/i.test(value)) {
    throw new InputError(`input agent-path: ${quoted(value)} is not a path; give the path of the agent under the deployment's address, for example /api/chat`);
  }
  return value.startsWith('/') ? value : `/${value}`;
}

/** Whole seconds from 0 to MAX_WAIT_FOR_AGENT_S. */
function waitForAgentInput(value: string): number | null {
  if (value === '') return null;
  const n = wholeNumberText(value);
  if (n === null || n > MAX_WAIT_FOR_AGENT_S) {
    throw new InputError(`input wait-for-agent: ${quoted(value)} is not a whole number of seconds from 0 to ${MAX_WAIT_FOR_AGENT_S}`);
  }
  return n;
}

/** "Name: value" per line. Values are secrets: the error names the line, never the value. */
export function parseHeaders(text: string): Record<string, string> {
  const headers: Record<string, string> = {};
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const colon = line.indexOf(':');
    const name = colon > 0 ? line.slice(0, colon).trim() : '';
    if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(name)) {
      throw new InputError(`input agent-headers: line ${i + 1} is not "Name: value"`);
    }
    headers[name] = line.slice(colon + 1).trim();
  });
  return headers;
}

/** A workflow file name as the dispatch API takes it (`agent-replay.yml`); a path under .github/workflows/ is reduced to it. */
function workflowFileInput(name: string, value: string): string | null {
  if (value === '') return null;
  const file = value.replace(/^\.?\/?\.github\/workflows\//, '');
  if (/^[A-Za-z0-9._-]+\.ya?ml$/.test(file)) return file;
  throw new InputError(`input ${name}: ${quoted(value)} is not a workflow file name; use the check workflow's file name in .github/workflows, for example agent-replay.yml`);
}

/** `i/n` (for example `${{ matrix.shard }}/4`); empty: no shard. */
function shardInput(value: string): { index: number; total: number } | null {
  if (value === '') return null;
  try {
    return Object.freeze(parseShard(value, 'input shard'));
  } catch (e) {
    throw new InputError((e as Error).message);
  }
}

/**
 * A path input as given; one written for Windows (`C:\suite`, `\\server\share`) on a Linux or
 * macOS runner is refused (docs/action.md, "Inputs"; src/windows-path.ts).
 */
function pathInput(name: string, value: string, example: string): string {
  const refusal = windowsPathRefusal(value, `input ${name}`, `${name}: ${example}`);
  if (refusal !== null) throw new InputError(refusal);
  return value;
}

/** action.yml's default of results-path. */
const DEFAULT_RESULTS_PATH = 'agent-replay-results/results.json';

/**
 * Where the record goes: the results-path input, whose default is one folder per suite when the
 * suite is not in the default folder, so that two suites' steps in one job do not write over each
 * other's results.json (docs/action.md, "Two suites in one repository").
 */
function resultsPathInput(value: string, dir: string): string {
  const suite = suiteName(dir);
  if (value !== '' && value !== DEFAULT_RESULTS_PATH) return value;
  return suite === null ? DEFAULT_RESULTS_PATH : `agent-replay-results/${suiteSlug(suite)}/results.json`;
}

export function readInputs(get: Get): Inputs {
  const failOnText = get('fail-on');
  let failOn: FailOnCondition[];
  try {
    failOn = parseFailOn(failOnText, FAIL_ON_CONDITIONS);
  } catch (e) {
    throw new InputError(`input ${(e as Error).message}`);
  }
  const orNull = (v: string): string | null => (v === '' ? null : v);
  const mode = oneOf('mode', get('mode'), MODES, 'check');
  const shard = shardInput(get('shard'));
  if (shard !== null && mode !== 'check') throw new InputError(`input shard: only check mode replays a shard; mode ${mode} reads recorded results (remove shard here)`);
  if (get('timings') !== '' && shard === null) throw new InputError('input timings: balances the shards of a check; set shard too (for example ${{ matrix.shard }}/4)');
  // Report mode's inputs elsewhere: a merge job that forgot mode: report would replay (and spend) instead of combining.
  if (mode !== 'report' && get('results') !== '') {
    throw new InputError(`input results: only report mode combines recorded results; mode ${mode} ${mode === 'check' ? 'replays the suite' : 'reads the reviewed run'} (set mode: report, or remove results here)`);
  }
  if (mode !== 'report' && get('pr-number') !== '') {
    throw new InputError(`input pr-number: only report mode comments on a pull request it is given; mode ${mode} reads it from the event (set mode: report, or remove pr-number here)`);
  }
  // The accept job's and the merge job's inputs elsewhere: said, not ignored (a check job given
  // check-workflow dispatches nothing; a check shard given allow-incomplete still fails its gate).
  const doing = mode === 'check' ? 'replays the suite' : mode === 'accept' ? 'reads the reviewed run' : 'reads recorded results';
  const checkWorkflow = workflowFileInput('check-workflow', get('check-workflow'));
  if (checkWorkflow !== null && mode !== 'accept') {
    throw new InputError(`input check-workflow: only accept mode dispatches the check workflow, after its baseline commit; mode ${mode} ${doing} (set it on the accept job, with mode: accept, or remove check-workflow here)`);
  }
  const allowIncomplete = bool('allow-incomplete', get('allow-incomplete'), false);
  if (allowIncomplete && mode !== 'report') {
    throw new InputError(`input allow-incomplete: only report mode merges shards, and only a merge can be incomplete; mode ${mode} ${doing} (set it on the merge job, with mode: report, or remove allow-incomplete here)`);
  }
  const dir = pathInput('dir', get('dir'), '.agent-replay') || '.agent-replay';
  const repeat = attemptsInput('repeat', get('repeat'));
  const repeatMax = attemptsInput('repeat-max', get('repeat-max'));
  if ((repeat !== null || repeatMax !== null) && mode !== 'check') {
    throw new InputError(`input ${repeat !== null ? 'repeat' : 'repeat-max'}: only check mode replays; mode ${mode} reads recorded results (remove it here)`);
  }
  if (repeat !== null && repeatMax !== null && repeatMax < repeat) {
    throw new InputError(`input repeat-max: ${repeatMax} is below repeat ${repeat}; give repeat-max ${repeat} or more, or a smaller repeat`);
  }
  return Object.freeze({
    mode,
    agentUrl: orNull(get('agent-url')),
    agentHeaders: Object.freeze(parseHeaders(get('agent-headers'))),
    agentPath: agentPathInput(get('agent-path')),
    waitForAgent: waitForAgentInput(get('wait-for-agent')),
    dir,
    judgeProvider: get('judge-provider') === '' ? null : oneOf('judge-provider', get('judge-provider'), JUDGE_PROVIDERS, 'openai'),
    judgeBaseUrl: orNull(get('judge-base-url')),
    judgeModel: orNull(get('judge-model')),
    judgeApiKey: orNull(get('judge-api-key')),
    githubToken: get('github-token'),
    comment: bool('comment', get('comment'), true),
    failOn: Object.freeze(failOn),
    costCap: positiveNumber('cost-cap', get('cost-cap'), false),
    confirmCost: bool('confirm-cost', get('confirm-cost'), false),
    concurrency: concurrencyInput(get('concurrency')),
    repeat,
    repeatMax,
    acceptLabel: get('accept-label') || 'accept-baseline',
    confirmLabel: get('confirm-label') || 'confirm-cost',
    commentKey: orNull(get('comment-key')),
    resultsPath: resultsPathInput(pathInput('results-path', get('results-path'), DEFAULT_RESULTS_PATH), dir),
    prNumber: prNumberInput(get('pr-number')),
    checkWorkflow,
    shard,
    timings: orNull(pathInput('timings', get('timings'), 'timings/results.json')),
    allowIncomplete,
    results: Object.freeze(get('results').split(/\r?\n/).map((s) => s.trim()).filter(Boolean).map((s) => pathInput('results', s, 'shards'))),
  });
}

/** Every secret an input carries: header values, API key, token. */
export function inputSecrets(inputs: Inputs): string[] {
  return [...Object.values(inputs.agentHeaders), inputs.judgeApiKey ?? '', inputs.githubToken].filter((s) => s.length > 0);
}
