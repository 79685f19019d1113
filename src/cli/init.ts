// `agent-replay init`: from nothing to a suite and three workflows in one command. Flags only, no
// questions (it runs the same on a terminal, in CI and in a script). Every file is created
// exclusively: an existing file (or link) is never overwritten, only reported as skipped.

import { existsSync, lstatSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { createFileExclusively, writeFailureWords } from '../fs-safe.js';
import { docsUrl, TOOL } from '../version.js';
import { shownJson, shownShellWord } from '../words.js';
import { EXIT, isSystemError, UserError } from '../errors.js';
import { UsageError } from '../engine.js';
import type { CliIO } from './output.js';
import { suggest } from '../suite/issues.js';
import { defaultOut } from './results-dir.js';
import { AGENT_PRESETS } from '../suite/index.js';
import { PRESETS } from '../config.js';
import type { Assertion } from '../types.js';
import { estimateCost, turnsPerFixture } from '../evaluate/estimate.js';
import { resolveConfigFile } from '../suite/config-file.js';
import { TRACES_DEFAULTS } from '../suite/config/traces.js';
import { loadYamlPackage, readYaml, yamlPackage } from '../suite/yaml/index.js';
import { DEFAULT_SUITE_DIR, reportArtifactsPatterns, resultsArtifactsPattern, suiteName, suiteSlug } from '../action/context.js';
import { clip, terminalBlock, terminalLine } from '../report/escape.js';
import { CONFIG_NAMES, NEW_CONFIG_NAME } from '../suite/config-names.js';

/**
 * Every preset init has a config template for. Which of them it offers is decided at run time by
 * the config loader itself (offeredPresets): a template the loader does not accept, such as a
 * preset this build does not know, is never offered.
 */
export const INIT_TEMPLATES = ['native', 'openai-chat', 'openai-responses', 'anthropic-messages', 'rasa-rest', 'vercel-ai', 'langgraph', 'mastra'] as const;
export type InitPreset = (typeof INIT_TEMPLATES)[number];

/** The repository of the Action, as workflows name it in `uses:`; pinned to this version's tag. */
const ACTION_REPOSITORY = 'agent-replay/agent-replay';
export const ACTION_USES = `${ACTION_REPOSITORY}@v${TOOL.version}`;
/**
 * GitHub's actions, at the major version tag a workflow names them by: the ones init writes
 * (checkout, download-artifact), and every one the docs' examples show, which name the same tag
 * (test/docs/examples.test.ts). Each is the action's current major, whose action.yml runs on
 * node24 (the v4 tags run on node20, past its end of life in April 2026); the project's own
 * workflows pin the same majors by commit SHA (test/repo/workflows.test.ts). Why a tag, not a
 * SHA, in what init writes: docs/cli.md, "init".
 */
export const PINNED = {
  checkout: 'actions/checkout@v7',
  downloadArtifact: 'actions/download-artifact@v8',
  uploadArtifact: 'actions/upload-artifact@v7',
  setupNode: 'actions/setup-node@v7',
  createGithubAppToken: 'actions/create-github-app-token@v3',
} as const;

export interface InitOptions {
  dir: string;
  /** --preset as given; undefined when it was not: the preset of a config.yml already there, else native. */
  preset?: string | undefined;
  workflows: string;
}

export interface InitFile {
  /** Relative to the working directory, with forward slashes. */
  path: string;
  text: string;
}

/** Per preset: the path of the chat endpoint on a preview, an example URL, and the lines of its agent section. */
interface PresetTemplate {
  agentPath: string;
  exampleUrl: string;
  /** What the preset sends and reads, in comment lines. */
  about: string[];
  /** The preset's own settings, as YAML lines under agent:. */
  settings: string[];
  /**
   * The header that carries the agent's key: config.yml shows it as ${SECRET} (in a comment, so
   * validate passes with no env set) and the check workflow's agent-headers as the repository
   * secret of the same name, so that both name one secret (docs/cli.md, "init").
   */
  key: { header: string; prefix: string; secret: string };
  /**
   * Why the key may not be needed at all, when the API asks for none of its own (Rasa's REST
   * channel: docs/presets.md); step 2 of the next steps says the secret is optional, and when.
   */
  keyOptional?: string;
  /** Headers the API requires besides the key, as YAML lines under headers:. */
  required?: string[];
}

const BEARER = { header: 'Authorization', prefix: 'Bearer ', secret: 'AGENT_TOKEN' };

const TEMPLATES: Record<InitPreset, PresetTemplate> = {
  native: {
    agentPath: '/api/chat',
    exampleUrl: 'http://localhost:3000/api/chat',
    about: ['native: POST {session, message, persona}, answered with {reply, route, ended, offTrack};', 'the welcome turn opens each session with {session, persona, start: true}.'],
    settings: ['preset: native'],
    key: BEARER,
  },
  'openai-chat': {
    agentPath: '/v1/chat/completions',
    exampleUrl: 'http://localhost:3000/v1/chat/completions',
    about: ['openai-chat: POST {model, messages: [{role: user, content}]}, the reply read from', 'choices.0.message.content. Each fixture is one fresh conversation.'],
    settings: ['preset: openai-chat', 'model: gpt-4o-mini      # sent as "model"; use the one your endpoint serves', '# stream: true          # ask for a streamed reply (chat completion chunks)'],
    key: { header: 'Authorization', prefix: 'Bearer ', secret: 'OPENAI_API_KEY' },
  },
  'openai-responses': {
    agentPath: '/v1/responses',
    exampleUrl: 'http://localhost:3000/v1/responses',
    about: ['openai-responses: POST {model, input, store: false} (the OpenAI Responses API), the reply read', 'from the output_text parts of output[]. Each fixture is one fresh conversation.'],
    settings: ['preset: openai-responses', 'model: gpt-4o-mini      # sent as "model"; use the one your endpoint serves', '# stream: true          # ask for a streamed reply (Responses events)'],
    key: { header: 'Authorization', prefix: 'Bearer ', secret: 'OPENAI_API_KEY' },
  },
  'anthropic-messages': {
    agentPath: '/v1/messages',
    exampleUrl: 'http://localhost:3000/v1/messages',
    about: ['anthropic-messages: POST {model, max_tokens, messages: [{role: user, content}]} (the Anthropic', 'Messages API), the reply read from the text blocks of content[]. One fresh conversation each.'],
    settings: [
      'preset: anthropic-messages',
      'model: claude-haiku-4-5 # sent as "model"; use the one your endpoint serves',
      'maxTokens: 1024         # sent as "max_tokens"',
      '# stream: true          # ask for a streamed reply (message stream events)',
    ],
    key: { header: 'x-api-key', prefix: '', secret: 'ANTHROPIC_API_KEY' },
    required: ['anthropic-version: "2023-06-01"   # the Messages API asks for it'],
  },
  'rasa-rest': {
    agentPath: '/webhooks/rest/webhook',
    exampleUrl: 'http://localhost:5005/webhooks/rest/webhook',
    about: ['rasa-rest: POST {sender: session, message} (the Rasa REST channel); the texts of the bot', 'messages answered are joined with a blank line into the reply.'],
    settings: ['preset: rasa-rest'],
    key: BEARER,
    keyOptional: 'only if a proxy in front of Rasa asks for one: its REST channel checks no key of its own',
  },
  'vercel-ai': {
    agentPath: '/api/chat',
    exampleUrl: 'http://localhost:3000/api/chat',
    about: ['vercel-ai: POSTs what the AI SDK\'s useChat posts ({id, messages: the whole UI message history, trigger})', 'and reads the UI message stream it answers with to its end; a persona script\'s mocks go in "mocks".'],
    settings: ['preset: vercel-ai'],
    key: BEARER,
  },
  langgraph: {
    agentPath: '/runs/wait',
    exampleUrl: 'http://localhost:2024/runs/wait',
    about: ['langgraph: POST {assistant_id, input: {messages: [{role, content}, ...]}} to /runs/wait', '(a stateless run of LangGraph Platform); the reply is the AI messages the run added;', 'a persona script\'s mocks go in config.configurable.mocks.'],
    settings: ['preset: langgraph', 'assistantId: agent      # sent as "assistant_id": the graph name in langgraph.json, or an assistant id'],
    key: { header: 'x-api-key', prefix: '', secret: 'LANGSMITH_API_KEY' },
  },
  mastra: {
    agentPath: '/api/agents/support/generate',
    exampleUrl: 'http://localhost:4111/api/agents/support/generate',
    about: ['mastra: POST {messages: [{role, content}, ...], requestContext: {mocks}} to a Mastra server\'s', '/api/agents/<agentId>/generate; the reply is its "text", the tool calls its toolCalls and toolResults;', 'a persona script\'s mocks go in requestContext.mocks. For /stream, set stream: true and point url at .../stream.'],
    settings: ['preset: mastra', '# stream: true          # then url: .../api/agents/<agentId>/stream'],
    key: BEARER,
  },
};

/** The headers section of config.yml: the required headers, and the key commented out. */
function configHeaders(t: PresetTemplate): string[] {
  const key = `${t.key.header}: "${t.key.prefix}\${${t.key.secret}}"`;
  return t.required === undefined ? ['# headers:', `#   ${key}`] : ['headers:', ...t.required.map((l) => `  ${l}`), `  # ${key}`];
}

function agentSection(preset: InitPreset): string {
  const t = TEMPLATES[preset];
  const lines = [
    'agent:',
    "  # The agent's endpoint. In the workflows it comes from the deployment (environment_url +",
    '  # the agent-path input) or the agent-url input, which override this; set it here to run the',
    '  # suite from your machine (npx agent-replay run), or pass --agent-url.',
    `  # url: ${t.exampleUrl}`,
    ...t.about.map((l) => `  # ${l}`),
    ...t.settings.map((l) => `  ${l}`),
    '  # Request headers. ${NAME} is read from the environment (a missing variable is an error, so',
    '  # keys are left commented out here); values from the environment are secrets, never printed.',
    ...configHeaders(t).map((l) => `  ${l}`),
    '  timeoutMs: 30000        # per request, in ms (1 to 600000)',
    '  concurrency: 4          # conversations in flight',
    '  retries: 2              # after the first attempt, on network errors, 429 and 5xx',
    '  waitForAgent: 0         # seconds to wait for a starting preview (0 to 600); the workflow sets 60',
  ];
  return `${lines.join('\n')}\n`;
}

/** Whether the config loader accepts `preset`'s config.yml as init writes it, with no environment variable set. */
function loaderAccepts(preset: InitPreset): boolean {
  if (!(AGENT_PRESETS as readonly string[]).includes(preset)) return false;
  const parsed = readYaml('config.yml', configYml(preset));
  if (parsed.src === null) return false;
  return resolveConfigFile(parsed.src, 'config.yml', parsed.data, {}).errors.length === 0;
}

let offered: InitPreset[] | null = null;

/** The presets init offers: those whose template the config loader of this build accepts (checked once). */
export function offeredPresets(): readonly InitPreset[] {
  offered ??= INIT_TEMPLATES.filter(loaderAccepts);
  return offered;
}

/**
 * The cost section init writes. The cap is sized for a starting suite (the loader's own default
 * is lower): 10 to 20 fixtures replayed against a local agent must not be refused, and a suite of
 * hundreds still is, until someone confirms.
 */
export const INIT_COST = { agentTurnUsd: 0.01, judgeCallUsd: 0.005, capUsd: 1 } as const;

/**
 * How many fixtures of `preset` fit under the cap, as the run's own estimate counts them
 * (estimateCost, docs/semantics.md#cost): the agent calls one fixture sends (the welcome turn only
 * when the preset has one, and the message), and when `judged`, a judge: assertion and the meaning
 * call the estimate counts for each fixture with a baseline (docs/meaning.md, "Costs").
 */
function capFixtures(preset: InitPreset, judged: boolean): number {
  const cost = { ...INIT_COST, turnsPerFixture: null };
  const assertion: Assertion | null = judged ? { kind: 'judge', criterion: 'x', threshold: 0.7 } : null;
  const one = estimateCost([assertion], cost, false, { welcomeTurn: hasWelcomeTurn(preset) }, [], 1, judged ? 1 : 0).usd;
  return Math.floor(INIT_COST.capUsd / one + 1e-9);
}

/** Whether `preset` opens each session with a welcome turn (config.ts, PRESETS). */
function hasWelcomeTurn(preset: InitPreset): boolean {
  return PRESETS[preset].start !== null;
}

/** The cost comment's words for `preset`: what one fixture sends, and how many fit under the cap. */
function capComment(preset: InitPreset): string[] {
  const turns = turnsPerFixture({ turnsPerFixture: null }, hasWelcomeTurn(preset));
  const why = turns === 1 ? 'the message; this preset has no welcome turn' : 'a welcome turn and the message';
  return [
    `Sized for a starting suite: ${INIT_COST.capUsd.toFixed(2)} USD covers ${capFixtures(preset, false)} fixtures of ${turns} agent ${turns === 1 ? 'call' : 'calls'} each`,
    `(${why}). With a judge, each fixture with a baseline also counts one`,
    `meaning call at most, and a judge: assertion one more: ${capFixtures(preset, true)} judged fixtures`,
    `with baselines (${docsUrl('meaning.md', 'Costs')}). Raise it as the suite grows.`,
  ];
}

/**
 * The commented traces: section (docs/traces.md, "The traces: section"): a receiver for an agent
 * started in the same job or on this machine, which the agent's exporter is pointed at.
 */
function tracesComment(): string[] {
  const port = TRACES_DEFAULTS.port;
  return [
    "Read tool calls, errors and time from the agent's OpenTelemetry spans: agent-replay receives",
    `them on 127.0.0.1 while it runs, from an agent started (in the same job, or on your machine) with`,
    `OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:${port}. A deployed agent's spans are read from its`,
    `trace store instead, with query: ${docsUrl('traces.md', 'The traces: section')}`,
    'traces:',
    `  receive: { port: ${port} }`,
  ];
}

function configYml(preset: InitPreset): string {
  return `# agent-replay suite: how to reach the agent, the judge and the cost cap.
# Every key is optional; action inputs and command-line flags override them.
# Check it with: npx agent-replay validate
${agentSection(preset)}
# A judge grades replies for fixtures with a judge: assertion (an LLM call: it costs money).
# judge:
#   provider: openai      # openai (any OpenAI-compatible endpoint) | anthropic
#   model: gpt-4o-mini
#   apiKey: \${JUDGE_API_KEY}

${tracesComment().map((l) => `# ${l}`).join('\n')}

# The estimate of a run (flat guesses per call, not a bill) is checked against capUsd before
# anything is sent; above it, nothing runs until someone confirms (the confirm-cost label, or
# --confirm-cost).
cost:
  agentTurnUsd: ${INIT_COST.agentTurnUsd.toFixed(2)}      # a flat guess per agent call
  judgeCallUsd: ${INIT_COST.judgeCallUsd.toFixed(3)}     # a flat guess per judge call
${capComment(preset).map((l) => `  # ${l}`).join('\n')}
  capUsd: ${INIT_COST.capUsd.toFixed(2)}
`;
}

/** The example fixture; its comment names the suite's config file, `configName`, where a judge is set. */
const exampleFixture = (configName: string): string => `# One fixture: a message sent in a fresh session, and what the reply must show.
# Replace it with what your agent must keep doing. Other assertion forms:
#   assert: { contains: "30 days" }                             literal, case-sensitive
#   assert: { judge: "The reply offers to help.", threshold: 0.7 }   needs a judge in ${configName}
#   (no assert: a probe: the reply is recorded and compared with its baseline)
label: example-greeting
message: Hello! What can you help me with?
assert: { regex: "help", flags: "i" }
`;

/**
 * A folder as a workflow's YAML value: as it is when YAML reads it so, else double-quoted (a
 * ` #` would start a comment, a leading `*`, `&` or `!` is YAML syntax), each control character,
 * line break and bidi override as its escape (`\u001b`, `\n`, `\u202e`), so that the check reads
 * the suite folder init wrote and the file shows every character of it (docs/cli.md, "init").
 */
function yamlWord(text: string): string {
  if (/^[A-Za-z0-9._/-]+$/.test(text)) return text;
  // shownJson: also DEL and the C1 controls, which YAML does not allow raw, U+2028, U+2029 and bidi overrides, which a workflow file must not hold raw.
  return shownJson(text);
}

/** The check workflow: a preview announced by the host (deployment_status) is replayed. */
function checkWorkflow(dir: string, preset: InitPreset): string {
  return `# agent-replay: replay the suite against each preview deployment and comment on its pull request.
# Vercel, Netlify and other hosts announce a preview with a deployment_status event; the agent's
# URL is the deployment's environment_url + agent-path.
name: agent-replay
on:
  deployment_status:
permissions:
  contents: read          # check out the suite
  pull-requests: write    # find the pull request of the commit, and the sticky comment
  actions: read           # the previous run's results (its artifact), compared in the comment
jobs:
  replay:
    if: github.event.deployment_status.state == 'success'
    concurrency:   # on the job, not the workflow: a run that if skips joins no group, cancels nothing
      group: agent-replay-\${{ github.event.deployment.sha }}-\${{ github.event.deployment.environment }}
      cancel-in-progress: true
    runs-on: ubuntu-latest
    steps:
      - uses: ${PINNED.checkout}
        with:
          ref: \${{ github.event.deployment.sha }}   # the deployed commit
          persist-credentials: false
      - uses: ${ACTION_USES}
        with:
          dir: ${yamlWord(dir)}
          agent-path: ${TEMPLATES[preset].agentPath.padEnd(18)} # the agent's path on the preview: change it to yours
          wait-for-agent: 60           # seconds a cold preview may take to answer
          fail-on: newly_failing, unverified   # unverified: an errored or not evaluated item fails the check
          # agent-headers: |
          #   ${TEMPLATES[preset].key.header}: ${TEMPLATES[preset].key.prefix}\${{ secrets.${TEMPLATES[preset].key.secret} }}
          # judge-api-key: \${{ secrets.JUDGE_API_KEY }}
`;
}

/** The accept workflow: the accept-baseline label commits the replies the comment shows, into the check's suite folder. */
function acceptWorkflow(dir: string): string {
  return `# agent-replay-accept: a maintainer's accept-baseline label commits the reviewed replies as baselines.
# It never checks out or runs the pull request's code: it reads the comment and the results artifact.
name: agent-replay-accept
on:
  pull_request_target:
    types: [labeled]
permissions:
  contents: write         # the baseline commit
  pull-requests: write    # the comment, removing the label, when the label was applied
  actions: read           # download the results artifact of the check
jobs:
  accept:
    if: github.event.label.name == 'accept-baseline'   # the label, as accept-label below and in agent-replay-report.yml names it: rename all together
    concurrency:   # on the job, not the workflow: a run that if skips joins no group, cancels nothing
      group: agent-replay-accept-\${{ github.event.pull_request.number }}
      cancel-in-progress: false
    runs-on: ubuntu-latest
    steps:
      - uses: ${ACTION_USES}
        with:
          mode: accept
          accept-label: accept-baseline   # the label the if: above runs for; the check's comment names this one
          dir: ${yamlWord(dir)}   # the check workflow's: the baselines are committed in its baselines/ folder
          comment-key: agent-replay   # the check workflow's name: its comment shows the run
`;
}

/** The report workflow: comments for a check that could not (a pull_request check of a fork). */
function reportWorkflow(dir: string): string {
  return `# agent-replay-report: comments for a check that ran on a fork's pull request (read-only token).
# It runs with this repository's token and never runs the fork's code: it reads the results artifact.
# With the deployment_status check, which comments itself, it does nothing.
name: agent-replay-report
on:
  workflow_run:
    workflows: [agent-replay]
    types: [completed]
permissions:
  contents: read          # the pull request's suite, compared with its base (never checked out)
  pull-requests: write    # the sticky comment
  actions: read           # download the check's results artifact
jobs:
  report:
    if: github.event.workflow_run.event == 'pull_request'
    runs-on: ubuntu-latest
    steps:
      - uses: ${PINNED.downloadArtifact}
        with:
          run-id: \${{ github.event.workflow_run.id }}
          github-token: \${{ github.token }}
          pattern: ${reportArtifactsPatterns(dir).shards}   # a matrix's shards, when the check ran one
          path: shards
      - if: hashFiles('shards/**') == ''   # no shard: the whole run's (never beside shards: a matrix's merge job's record holds them)
        uses: ${PINNED.downloadArtifact}
        with:
          run-id: \${{ github.event.workflow_run.id }}
          github-token: \${{ github.token }}
          pattern: ${reportArtifactsPatterns(dir).run}   # this suite's results artifacts only, by the run's commit (${suiteName(dir) === null ? "agent-replay-results-* takes every suite's" : `${resultsArtifactsPattern(dir, '')} takes a folder's whose name goes on from this one's`}): report mode reads every .json file below shards
          path: shards
      - id: pr
        run: echo "number=$(cat shards/*/pr-number 2>/dev/null | head -1)" >> "$GITHUB_OUTPUT"
      - uses: ${ACTION_USES}
        with:
          mode: report
          dir: ${yamlWord(dir)}   # the check workflow's: the comment of its suite
          results: shards
          pr-number: \${{ steps.pr.outputs.number }}
          comment-key: agent-replay
          accept-label: accept-baseline   # the accept workflow's, which its comment names: this job checks out nothing to read it from
`;
}

const slash = (p: string): string => p.split('\\').join('/');

/** The files init writes, relative to the working directory; the config file under `configName`, the suite's (KeptConfig). Pure. */
function initFiles(o: { dir: string; preset: InitPreset; workflows: string; configName: string }): InitFile[] {
  const dir = slash(o.dir).replace(/\/+$/, '') || '.';
  const wf = slash(o.workflows).replace(/\/+$/, '') || '.';
  return [
    { path: `${dir}/${o.configName}`, text: configYml(o.preset) },
    { path: `${dir}/fixtures/example-greeting.yml`, text: exampleFixture(o.configName) },
    { path: `${wf}/agent-replay.yml`, text: checkWorkflow(dir, o.preset) },
    { path: `${wf}/agent-replay-accept.yml`, text: acceptWorkflow(dir) },
    { path: `${wf}/agent-replay-report.yml`, text: reportWorkflow(dir) },
  ];
}

function checkPreset(value: string): InitPreset {
  const presets = offeredPresets();
  if ((presets as readonly string[]).includes(value)) return value as InitPreset;
  // A family's name ("openai") stands for each of its forms: all are named, the closest first otherwise.
  const family = presets.filter((p) => p.startsWith(`${value.toLowerCase()}-`));
  const guess = family.length > 0 ? family : [suggest(value, presets)].filter((p): p is InitPreset => p !== null);
  const all = presets.join(', ');
  throw new UsageError(
    guess.length === 0
      ? `--preset ${shownShellWord(value)} is not one init can write; use one of: ${all}`
      : `--preset ${shownShellWord(value)} is not one init can write; did you mean ${guess.map((p) => `"${p}"`).join(' or ')}? The presets: ${all}`,
  );
}

// A refused value is named as the shell reads it (shownShellWord), as --base's and --out's are: on one line,
// a line break or control character in $'...' (a quote around it showed them raw and could not say where a quote in it ended).
function checkInside(cwd: string, flag: string, value: string): void {
  const rel = relative(cwd, resolve(cwd, value));
  if (rel.startsWith('..') || isAbsolute(rel)) {
    throw new UsageError(`--${flag} ${shownShellWord(value)} is outside the working directory; give a folder inside the repository, for example ${flag === 'dir' ? '.agent-replay' : '.github/workflows'}`);
  }
  // Inside it but absolute: the workflows read dir from the repository's root on GitHub's runner,
  // where this machine's path does not exist; said as such, with the relative path (docs/cli.md, "init").
  if (isAbsolute(value)) {
    throw new UsageError(`--${flag} ${shownShellWord(value)} is an absolute path; init takes folders relative to the working directory (the workflows name the suite folder from the repository's root, on GitHub's runner): give --${flag} ${shownShellWord(slash(rel) || '.')}`);
  }
}

/** The workflows init writes, by what their job does: their file names in the workflows folder. */
const WORKFLOW_FILES = { check: 'agent-replay.yml', accept: 'agent-replay-accept.yml', report: 'agent-replay-report.yml' } as const;
type WorkflowRole = keyof typeof WORKFLOW_FILES;

/** A `dir:` value as a workflow file spells it (plain, or quoted as yamlWord quotes it), or null when it cannot be read: a line of a workflow that is not valid YAML. */
function dirValue(raw: string): string | null {
  const text = raw.trim();
  if (text.startsWith('"')) {
    const end = /^"(?:[^"\\]|\\.)*"/.exec(text)?.[0];
    try {
      return end === undefined ? null : (JSON.parse(end) as string);
    } catch {
      return null;
    }
  }
  if (text.startsWith("'")) return /^'((?:[^']|'')*)'/.exec(text)?.[1]?.replace(/''/g, "'") ?? null;
  return text.replace(/\s+#.*$/, '');
}

/** The workflow read as YAML, or undefined when it is not valid YAML (an error of the parser, or more than one document). */
function workflowData(text: string): { data: unknown } | undefined {
  try {
    const doc = yamlPackage().parseDocument(text);
    return doc.errors.length > 0 ? undefined : { data: doc.toJS() as unknown };
  } catch {
    return undefined;
  }
}

/**
 * The values of the workflow's `dir` keys, at any depth (a step's `with:`, in a flow mapping too; a
 * matrix's list of folders, each item), as YAML reads them: a `dir:` line in a comment or a block
 * scalar (a `run: |` script) is none, and a quoted or folded value is its text. An empty `dir:` is
 * the Action's default folder, as the input left empty is.
 */
function dirInputs(data: unknown): string[] {
  const out: string[] = [];
  const scalar = (v: unknown): string | null => (v === null ? '' : typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? String(v) : null);
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(walk);
    if (value === null || typeof value !== 'object') return;
    for (const [key, v] of Object.entries(value)) {
      if (key === 'dir') {
        for (const item of Array.isArray(v) ? v : [v]) {
          const text = scalar(item);
          if (text !== null) out.push(text);
        }
      }
      walk(v);
    }
  };
  walk(data);
  return out;
}

/**
 * Whether a workflow that was already there runs the suite in `dir`: one of its `dir:` inputs names
 * that folder, or, for the default folder, it sets no `dir:` at all (the Action's default). Read as
 * YAML (dirInputs): a workflow init did not write may hold anything. One that is not valid YAML
 * (GitHub does not run it either) is read a line at a time instead, each `dir:` line's value as
 * written, and one init cannot read at all is taken as running the suite (nothing is said to add to
 * it). A `dir:` set by an expression (`dir: ${{ matrix.dir }}`, a matrix over the suites' folders)
 * cannot be read: such a workflow runs the suite when one of its values names the folder (the
 * matrix's list; a comment names nothing), else init cannot tell, and says so with the expression
 * (docs/cli.md, "init").
 */
function runsSuite(text: string, dir: string): { runs: true } | { runs: false; expression: string | null } {
  const read = workflowData(text);
  const named = read === undefined ? [...text.matchAll(/^[ \t]*(?:-[ \t]+)?dir:(.*)$/gm)].map((m) => dirValue(m[1] ?? '')) : dirInputs(read.data);
  if (named.length === 0) return suiteName(dir) === null ? { runs: true } : { runs: false, expression: null };
  if (named.some((value) => value !== null && (suiteName(value) ?? '') === (suiteName(dir) ?? ''))) return { runs: true };
  const expression = named.find((value): value is string => value !== null && value.includes('${{'));
  if (expression === undefined) return { runs: false, expression: null };
  // Not valid YAML: its values cannot be read, and it is taken as running the suite.
  return read === undefined || namesFolder(read.data, dir) ? { runs: true } : { runs: false, expression };
}

/**
 * Whether the workflow's YAML `data` holds the folder `dir` as a whole value: a value (a matrix's
 * list item, an `include:` entry) that is that folder, or a quoted word of an expression that is
 * (`${{ ... 'apps/sales/.agent-replay' ... }}`); never a comment, nor the end of a longer path
 * (docs/cli.md, "init").
 */
function namesFolder(data: unknown, dir: string): boolean {
  const folder = suiteName(dir) ?? DEFAULT_SUITE_DIR;
  const isFolder = (value: string): boolean => value.trim() !== '' && (suiteName(value.trim()) ?? DEFAULT_SUITE_DIR) === folder;
  const names = (value: unknown): boolean => {
    if (typeof value === 'string') return isFolder(value) || (value.includes('${{') && [...value.matchAll(/'((?:[^']|'')*)'/g)].some((m) => isFolder((m[1] ?? '').replace(/''/g, "'"))));
    if (Array.isArray(value)) return value.some(names);
    return value !== null && typeof value === 'object' && Object.values(value).some(names);
  };
  return names(data);
}

/**
 * The workflows init skipped (they were already there) that run another suite than the one in
 * `dir`: a second suite of a monorepo, whose steps go into those workflows (docs/action.md, "Two
 * suites in one repository"). `unread`: those whose `dir:` is an expression that does not name the
 * folder, by that expression: init cannot tell which suites they run. Only a regular file is read,
 * never through a link.
 */
function workflowsOfOtherSuites(cwd: string, o: { dir: string; workflows: string }, skipped: readonly string[]): { others: Set<WorkflowRole>; unread: Map<WorkflowRole, string> } {
  const others = new Set<WorkflowRole>();
  const unread = new Map<WorkflowRole, string>();
  const wf = slash(o.workflows).replace(/\/+$/, '') || '.';
  for (const role of Object.keys(WORKFLOW_FILES) as WorkflowRole[]) {
    const path = `${wf}/${WORKFLOW_FILES[role]}`;
    if (!skipped.includes(path)) continue;
    try {
      if (!lstatSync(join(cwd, path)).isFile()) continue;
      const read = runsSuite(readFileSync(join(cwd, path), 'utf8'), o.dir);
      if (read.runs) continue;
      if (read.expression === null) others.add(role);
      else unread.set(role, read.expression);
    } catch {
      // Unreadable: nothing is said to add to it.
    }
  }
  return { others, unread };
}

/**
 * A check workflow already there, as the accept and report workflows init writes find it: `name`,
 * the name GitHub gives it (its `name:`, else its path), which the report's `workflows:` names, null
 * when it is agent-replay; and `keys`, the comment keys of its agent-replay steps that are not
 * agent-replay, which the accept job's `comment-key` names: a step's `comment-key` when set (`set`),
 * else the workflow's name, as the Action's default is (docs/action.md, "Inputs"); an expression
 * init cannot read is taken as agent-replay. `step`: the step's suite folder (its `dir`), when the
 * workflow has more than one such step (two suites, two keys), to say which differs. null when
 * neither differs, when the file cannot be read as YAML, or when its name is not text.
 */
export interface KeptCheck {
  name: string | null;
  keys: { key: string; set: boolean; step: string | null }[];
}

export function keptCheckName(text: string, path: string): KeptCheck | null {
  const read = workflowData(text);
  if (read === undefined || read.data === null || typeof read.data !== 'object' || Array.isArray(read.data)) return null;
  const name = (read.data as { name?: unknown }).name;
  const named = name === undefined || name === null ? path : typeof name === 'string' && name.trim() !== '' ? name : null;
  if (named === null) return null;
  // No step found (a `uses:` init does not know): the workflow's one comment, under its name.
  const steps = commentKeyInputs(read.data);
  const keys = (steps.length === 0 ? [{ given: null, dir: null }] : steps).map((s) => {
    const set = s.given !== null && s.given.trim() !== '';
    return { key: !set ? named : (s.given as string).includes('${{') ? 'agent-replay' : (s.given as string), set, step: steps.length > 1 ? (s.dir ?? DEFAULT_SUITE_DIR) : null };
  });
  const kept = { name: named === 'agent-replay' ? null : named, keys: keys.filter((k) => k.key !== 'agent-replay') };
  return kept.name === null && kept.keys.length === 0 ? null : kept;
}

/**
 * The agent-replay steps of the workflow, at any depth, each with its `comment-key` and `dir` inputs
 * as text (null when not set): a step whose `uses:` names agent-replay, and any other mapping that
 * sets `comment-key` (a step's `with:` of a fork or a local copy of the Action).
 */
function commentKeyInputs(data: unknown): { given: string | null; dir: string | null }[] {
  const text = (v: unknown): string | null => (typeof v === 'string' || typeof v === 'number' ? String(v) : null);
  if (Array.isArray(data)) return data.flatMap(commentKeyInputs);
  if (data === null || typeof data !== 'object') return [];
  const map = data as Record<string, unknown>;
  const uses = text(map.uses);
  if (uses !== null && uses.toLowerCase().includes(ACTION_REPOSITORY)) {
    const inputs = map.with !== null && typeof map.with === 'object' && !Array.isArray(map.with) ? (map.with as Record<string, unknown>) : {};
    return [{ given: text(inputs['comment-key']), dir: text(inputs.dir) }];
  }
  if ('comment-key' in map) return [{ given: text(map['comment-key']), dir: text(map.dir) }];
  return Object.values(map).flatMap(commentKeyInputs);
}

/**
 * A check workflow already there named other than agent-replay, or posting its comments under
 * another key, beside an accept or report workflow init wrote this time: those find the check by
 * the name and key agent-replay, so it is said, with the fix (docs/cli.md, "init"), naming the step
 * that differs when there are several; null when neither file init wrote misses it.
 */
export function checkNameWarning(check: string, kept: KeptCheck, written: { accept: string | null; report: string | null }): string | null {
  // Quoted as JSON, its controls as their escapes (shownJson): JSON.stringify of terminalLine's `\u001b` doubled its backslash.
  const shown = (value: string): string => shownJson(clip(value, 80));
  const accept = written.accept !== null && kept.keys.length > 0 ? written.accept : null;
  const report = written.report !== null && kept.name !== null ? { file: written.report, name: kept.name } : null;
  if (accept === null && report === null) return null;
  const keys = accept === null ? [] : kept.keys;
  const set = keys.filter((k) => k.set);
  const byName = keys.some((k) => !k.set);
  const its = (k: { step: string | null }): string => (k.step === null ? 'it' : `its step for ${terminalLine(clip(k.step, 80))}`);
  const parts = [
    ...(accept === null ? [] : [`${accept} (comment-key: agent-replay) finds no comment of ${keys.every((k) => k.step === null) ? 'it' : keys.map(its).join(' or ')}`]),
    ...(report === null ? [] : [`${report.file} (workflows: [agent-replay]) never runs after it`]),
  ];
  const is = [
    ...(kept.name === null || (report === null && !byName) ? [] : [`is named ${shown(kept.name)}`]),
    ...set.map((k) => `${k.step === null ? '' : `${its(k)} `}sets comment-key: ${shown(k.key)}`),
  ].join(' and ');
  const renaming = report !== null || byName ? ['name: agent-replay'] : [];
  const inCheck = set.every((k) => k.step === null)
    ? `${[...renaming, ...(set.length > 0 ? ['comment-key: agent-replay'] : [])].join(' and ')} in it`
    : [...renaming.map((r) => `${r} in it`), ...set.map((k) => `comment-key: agent-replay in ${its(k)}`)].join(' and ');
  const single = keys.length === 1 && keys[0]?.step === null ? keys[0] : null;
  const elsewhere =
    single !== null && report !== null && single.key === report.name
      ? `comment-key and workflows to ${shown(report.name)} in the files init wrote`
      : [
          ...keys.map((k) => `comment-key to ${shown(k.key)} in ${accept as string}${k.step === null ? '' : `'s step for ${terminalLine(clip(k.step, 80))}`}`),
          ...(report === null ? [] : [`workflows to ${shown(report.name)} in ${report.file}`]),
        ].join(', and ');
  return `warning: ${check} was already there and ${is}, not agent-replay: ${parts.join(', and ')}.\n` + `  fix: if it is the check, set ${inCheck}; else set ${elsewhere}\n`;
}

/**
 * The steps a second suite adds to the workflows of the first, as docs/action.md's recipe has them
 * ("Two suites in one repository"), indented as in the workflows init writes: the check's step and
 * the accept step with the suite's `dir`, each after the steps there (`!cancelled()`: also when the
 * one before failed), and the report job's download of the suite's own artifacts and its report step.
 */
function suiteSteps(dir: string, preset: InitPreset): Record<WorkflowRole, string[]> {
  const d = yamlWord(dir);
  const folder = `shards-${suiteSlug(suiteName(dir) ?? dir)}`;
  const shards = yamlWord(folder);
  const step = (lines: string[]): string[] => ['      - if: ${{ !cancelled() }}', ...lines];
  // The report job's downloads into the suite's folder: a matrix's shards, else the whole run's (reportArtifactsPatterns).
  const patterns = reportArtifactsPatterns(dir);
  const download = (pattern: string): string[] => [
    `        uses: ${PINNED.downloadArtifact}`,
    '        with:',
    '          run-id: ${{ github.event.workflow_run.id }}',
    '          github-token: ${{ github.token }}',
    `          pattern: ${pattern}`,
    `          path: ${shards}`,
  ];
  return {
    check: step([
      `        uses: ${ACTION_USES}`,
      '        with:',
      `          dir: ${d}`,
      `          agent-path: ${TEMPLATES[preset].agentPath}   # or the agent-url input: as the step before gives its suite's agent`,
      '          wait-for-agent: 60',
      '          fail-on: newly_failing, unverified',
    ]),
    accept: step([`        uses: ${ACTION_USES}`, '        with:', '          mode: accept', `          dir: ${d}`, '          comment-key: agent-replay   # the check workflow\'s name, as the step before']),
    report: [
      ...step(download(patterns.shards)),
      `      - if: \${{ !cancelled() && hashFiles('${folder}/**') == '' }}   # no shard: the whole run's`,
      ...download(patterns.run),
      ...step([`        uses: ${ACTION_USES}`, '        with:', '          mode: report', `          dir: ${d}`, `          results: ${shards}`, '          pr-number: ${{ steps.pr.outputs.number }}', '          comment-key: agent-replay']),
    ],
  };
}

/** What to add to the workflows of another suite that were already there, as lines of the next steps; empty when there are none. */
function addToWorkflows(o: { dir: string; workflows: string; preset: InitPreset }, others: ReadonlySet<WorkflowRole>): string[] {
  if (others.size === 0) return [];
  const wf = slash(o.workflows).replace(/\/+$/, '') || '.';
  const steps = suiteSteps(o.dir, o.preset);
  const where: Record<WorkflowRole, string> = {
    check: `the job of ${wf}/${WORKFLOW_FILES.check}`,
    accept: `the job of ${wf}/${WORKFLOW_FILES.accept} (one job: the second step commits on top of the first's baseline commit)`,
    report: `the job of ${wf}/${WORKFLOW_FILES.report}, with this suite's artifacts only`,
  };
  const lines = [
    `     ${[...others].map((r) => `${wf}/${WORKFLOW_FILES[r]}`).join(', ')} ${others.size === 1 ? 'was' : 'were'} already there for another suite and ${others.size === 1 ? 'is' : 'are'} left as ${others.size === 1 ? 'it is' : 'they are'}:`,
    `     add this suite's steps to ${others.size === 1 ? 'it' : 'them'}, after the steps there (${docsUrl('action.md', 'Two suites in one repository')}):`,
  ];
  for (const role of Object.keys(WORKFLOW_FILES) as WorkflowRole[]) {
    if (!others.has(role)) continue;
    lines.push(`     To ${where[role]}:`, ...steps[role]);
  }
  return lines;
}

/**
 * What to say of the workflows already there whose `dir:` is an expression that names no such
 * folder (a matrix over the suites): init cannot tell whether they run this suite, so it says so,
 * and where the folder goes (docs/cli.md, "init").
 */
function unreadWorkflows(o: { dir: string; workflows: string }, unread: ReadonlyMap<WorkflowRole, string>): string[] {
  const wf = slash(o.workflows).replace(/\/+$/, '') || '.';
  const folder = yamlWord(slash(o.dir).replace(/\/+$/, '') || '.');
  return [...unread].map(
    ([role, expression]) =>
      `     ${wf}/${WORKFLOW_FILES[role]} sets dir: ${clip(terminalLine(expression), 80)}, which init cannot read, and names ${folder} nowhere: add ${folder} to the folders the expression takes (the matrix's list of suites), or add this suite's steps after the steps there (${docsUrl('action.md', 'Two suites in one repository')}).`,
  );
}

/**
 * Where the agent's key goes once its secret is added: the commented lines init wrote, or, in a file
 * that was already there (not init's, which may not have them), the input or key to set.
 */
function headers(o: { dir: string; preset: InitPreset; configName: string }, written: readonly string[], check: string): string {
  const config = `${slash(o.dir).replace(/\/+$/, '')}/${o.configName}`;
  const workflow = written.includes(check) ? 'uncomment\n     agent-headers / judge-api-key in the workflow' : `set the agent-replay step's\n     agent-headers / judge-api-key inputs in ${check}`;
  const local = written.includes(config) ? `the header in ${terminalLine(config)}` : `the ${TEMPLATES[o.preset].key.header} header under agent.headers in ${terminalLine(config)}`;
  return `${workflow}, and ${local} to run it locally`;
}

/** Step 2's words for the agent's secret: which secret, for which header, and, when the API asks for no key, that it is optional. */
export function agentSecretStep(preset: InitPreset): string {
  const t = TEMPLATES[preset];
  return `${t.key.secret} for the agent's ${t.key.header} header${t.keyOptional === undefined ? '' : ` (${t.keyOptional})`}`;
}

function nextSteps(o: { dir: string; workflows: string; preset: InitPreset; configName: string }, written: readonly string[], others: ReadonlySet<WorkflowRole> = new Set(), unread: ReadonlyMap<WorkflowRole, string> = new Map()): string {
  const check = `${slash(o.workflows).replace(/\/+$/, '')}/agent-replay.yml`;
  // The commands are pasted into a shell: a folder with a space or a quote is one quoted word.
  const dir = shownShellWord(o.dir);
  // A check workflow that was already there is not init's: its agent-path is whatever it says; one
  // of another suite takes this suite's step (docs/action.md, "Two suites in one repository").
  const first = written.includes(check)
    ? `In ${check}, set agent-path to your agent's path on the preview (e.g. ${TEMPLATES[o.preset].agentPath}).`
    : others.has('check')
      ? `Add this suite to the workflows of the suite already there, and set agent-path in its check step to your agent's path on the preview (e.g. ${TEMPLATES[o.preset].agentPath}):`
      : `${check} was already there and is left as it is: check that it runs agent-replay with agent-path set to your agent's path on the preview (e.g. ${TEMPLATES[o.preset].agentPath}).`;
  const add = [...addToWorkflows(o, others), ...unreadWorkflows(o, unread)];
  return `
Next:
  1. ${first}
${add.length > 0 ? `${add.join('\n')}\n` : ''}     No preview host? Trigger it on pull_request and pass agent-url instead: ${docsUrl('action.md', 'Check: replay on every pull request')}
  2. Add the secrets the agent or the judge need (Settings > Secrets and variables > Actions):
     ${agentSecretStep(o.preset)}, JUDGE_API_KEY for a judge; then ${headers(o, written, check)}.
  3. Check the suite:          npx agent-replay validate --dir ${dir}
     Try it on your machine:   npx agent-replay run --dir ${dir} --agent-url ${TEMPLATES[o.preset].exampleUrl}
     Probe one message:        npx agent-replay probe "Hello!" --dir ${dir} --agent-url ${TEMPLATES[o.preset].exampleUrl}
     A run writes its results to ${terminalLine(slash(defaultOut(o.dir)))}, a folder git ignores.
  4. Write fixtures for what your agent must keep doing (${terminalLine(o.dir)}/fixtures/*.yml), commit${written.length > 0 ? ' the new files' : ''}, and
     open a pull request: the preview's deployment runs the check and comments.
`;
}

/** The top folder of the git repository `cwd` is below (a `.git` folder or file there), or null: `cwd` is that folder, or in none. */
function repositoryRootAbove(cwd: string): string | null {
  let dir = resolve(cwd);
  if (existsSync(join(dir, '.git'))) return null;
  for (let parent = dirname(dir); parent !== dir; dir = parent, parent = dirname(dir)) {
    if (existsSync(join(parent, '.git'))) return parent;
  }
  return null;
}

/**
 * init run from a subfolder of a repository: GitHub runs only the workflows at the repository's
 * root, and the check's `dir` is read from there (docs/cli.md, "init"). Said, with the command to
 * run at the root; the files are written as asked.
 */
function subfolderWarning(o: { dir: string }, cwd: string): string {
  const root = repositoryRootAbove(cwd);
  if (root === null) return '';
  const dirFromRoot = slash(relative(root, resolve(cwd, o.dir)));
  // The root's workflows already there (another suite's) take this suite's steps: moving these over them would lose that suite (docs/action.md, "Two suites in one repository").
  const there = Object.values(WORKFLOW_FILES).filter((f) => existsSync(join(root, '.github', 'workflows', f)));
  return (
    `warning: ${terminalLine(cwd)} is inside the git repository ${terminalLine(root)}: GitHub runs only the workflows in .github/workflows at the root of the repository, and reads the check's dir from there, so the workflows written here will not run.\n` +
    `  fix: run init at the root instead:  cd ${shownShellWord(root)} && npx agent-replay init --dir ${shownShellWord(dirFromRoot)}\n` +
    (there.length > 0
      ? `  (the root already has ${there.map((f) => `.github/workflows/${f}`).join(', ')}: init at the root leaves ${there.length === 1 ? 'it' : 'them'} as ${there.length === 1 ? 'it is' : 'they are'} and says which steps to add for this suite; do not move the files written here over ${there.length === 1 ? 'it' : 'them'})\n`
      : `  (or move the workflow files to ${terminalLine(slash(join(root, '.github', 'workflows')))} and set dir: ${yamlWord(dirFromRoot)} in agent-replay.yml)\n`)
  );
}

/**
 * The preset a config.yml already there replays with, as the config loader reads it (agent.preset,
 * else native), or null when it cannot be read as a mapping (not YAML): init leaves it as it is, and
 * its next steps, and the workflows it writes without --preset, are for that preset (docs/cli.md, "init").
 */
export function keptPreset(text: string): string | null {
  const { src, data } = readYaml('config.yml', text);
  if (src === null) return null;
  if (data === null || data === undefined) return 'native'; // an empty file: every key is optional
  if (typeof data !== 'object' || Array.isArray(data)) return null;
  const agent = (data as { agent?: unknown }).agent;
  if (agent === null || agent === undefined) return 'native';
  if (typeof agent !== 'object' || Array.isArray(agent)) return null;
  const preset = (agent as { preset?: unknown }).preset;
  return preset === undefined || preset === null ? 'native' : typeof preset === 'string' ? preset : null;
}

/**
 * The name of the suite's config file already there, as the config loader picks it (config.yml,
 * else config.yaml: docs/configuration.md), or config.yml, the one to create: a config.yaml suite
 * gets no config.yml beside it, which would be read in its place.
 */
function configNameIn(dir: string): string {
  const there = (name: string): boolean => {
    try {
      return lstatSync(join(dir, name), { throwIfNoEntry: false }) !== undefined;
    } catch {
      return false; // a folder that cannot be read: init names the file it could not write
    }
  };
  return CONFIG_NAMES.find(there) ?? NEW_CONFIG_NAME;
}

/** keptPreset of the config.yml at `path`, or null when there is none or it cannot be read. */
function keptPresetAt(path: string): string | null {
  try {
    return lstatSync(path, { throwIfNoEntry: false })?.isFile() === true ? keptPreset(readFileSync(path, 'utf8')) : null;
  } catch {
    return null;
  }
}

/**
 * --preset asked for one preset and the config.yml already there, left as it is, names another:
 * runs speak the kept one's protocol, so it is said, with the two ways to the one asked for.
 */
export function keptPresetWarning(o: { dir: string; configName?: string }, asked: string, kept: string): string {
  const config = terminalLine(`${slash(o.dir).replace(/\/+$/, '')}/${o.configName ?? NEW_CONFIG_NAME}`);
  const dir = slash(o.dir) === DEFAULT_SUITE_DIR ? '' : ` --dir ${shownShellWord(slash(o.dir))}`;
  return (
    `warning: ${config} was already there and is left as it is: its agent.preset is ${terminalLine(clip(kept, 80))}, not ${asked}, so runs speak ${terminalLine(clip(kept, 80))}'s protocol; the next steps above are for ${asked}.\n` +
    `  fix: set preset: ${asked} under agent: in ${config}, with the settings ${asked} takes (${docsUrl('presets.md', 'Presets')}), or move ${config} aside and run init again: npx agent-replay init${dir} --preset ${asked}\n`
  );
}

/** checkNameWarning for the check workflow init skipped, when it wrote the accept or report workflow beside it; else null. */
function keptCheckNameAt(cwd: string, workflows: string, skipped: readonly string[], written: readonly string[]): string | null {
  const wf = slash(workflows).replace(/\/+$/, '') || '.';
  const check = `${wf}/${WORKFLOW_FILES.check}`;
  const accept = `${wf}/${WORKFLOW_FILES.accept}`;
  const report = `${wf}/${WORKFLOW_FILES.report}`;
  if (!skipped.includes(check) || (!written.includes(accept) && !written.includes(report))) return null;
  let kept: KeptCheck | null;
  try {
    kept = lstatSync(join(cwd, check)).isFile() ? keptCheckName(readFileSync(join(cwd, check), 'utf8'), check) : null;
  } catch {
    return null; // unreadable: nothing is said of it
  }
  return kept === null ? null : checkNameWarning(check, kept, { accept: written.includes(accept) ? accept : null, report: written.includes(report) ? report : null });
}

export async function runInit(given: InitOptions, terminal: CliIO): Promise<number> {
  // A folder's name is printed in nearly every line: a control character in it is shown as an
  // escape, never sent to the terminal (docs/security.md, "Agent text is data"); the commands name
  // it as the shell reads it (shownShellWord), the prose on its line (terminalLine: a line break as ` ⏎ `).
  const io = { ...terminal, stdout: (t: string) => terminal.stdout(terminalBlock(t)), stderr: (t: string) => terminal.stderr(terminalBlock(t)) };
  // The templates are checked by the config loader (offeredPresets), which places a problem with
  // the `yaml` package: imported here, before that synchronous check (suite/yaml/package.ts).
  await loadYamlPackage();
  const asked = given.preset === undefined ? null : checkPreset(given.preset);
  // A folder given with backslashes (typed on Windows: bots\shop) is written with slashes, as the
  // workflows read it on GitHub's runner; the commands init prints then name the folder it wrote,
  // which a shell on macOS or Linux would not find by its backslashes (docs/cli.md, "init").
  const folders = { ...given, dir: slash(given.dir), workflows: slash(given.workflows) };
  checkInside(io.cwd, 'dir', folders.dir);
  checkInside(io.cwd, 'workflows', folders.workflows);
  const o = { ...folders, configName: configNameIn(join(io.cwd, folders.dir)) };
  // A config file already there (config.yml, else config.yaml) is left as it is: without --preset, what init writes and says is for
  // the preset it names (a second init in an openai-chat suite does not say native's path and secret).
  const kept = keptPresetAt(join(io.cwd, o.dir, o.configName));
  const preset: InitPreset = asked ?? (kept !== null && (offeredPresets() as readonly string[]).includes(kept) ? (kept as InitPreset) : 'native');
  const written: string[] = [];
  const skipped: string[] = [];
  const failed: string[] = [];
  for (const f of initFiles({ dir: o.dir, preset, workflows: o.workflows, configName: o.configName })) {
    const target = join(io.cwd, f.path);
    // Never over anything already there, never through a link, never into a folder that leads outside.
    // A file already there is skipped before anything is staged next to it: a second init in a
    // checkout that cannot be written changes nothing and says so.
    let outcome: 'created' | 'exists';
    try {
      outcome = lstatSync(target, { throwIfNoEntry: false }) !== undefined ? 'exists' : await createFileExclusively(target, f.text, { within: io.cwd });
    } catch (e) {
      // A folder that cannot be written (no permission, a read-only file system, a file where a
      // folder goes): this file is named with the reason, and the others are still written.
      if (!isSystemError(e) && !(e instanceof UserError)) throw e;
      failed.push(f.path);
      io.stderr(`not written  ${terminalLine(f.path)}: ${writeFailureWords(e)}\n`);
      continue;
    }
    if (outcome === 'created') {
      written.push(f.path);
      io.stdout(`created  ${terminalLine(f.path)}\n`);
    } else {
      skipped.push(f.path);
      io.stdout(`skipped  ${terminalLine(f.path)} (it exists; left as it is)\n`);
    }
  }
  if (failed.length > 0) {
    io.stdout(`\n${written.length} created, ${skipped.length} skipped, ${failed.length} not written (init never overwrites a file).\n`);
    io.stderr(
      `agent-replay: init could not write ${failed.length === 1 ? failed[0] : `${failed.length} files`} in ${io.cwd}.\n` +
        `  fix: run init at the root of a repository you can write to, or make the folders named above writable; then run init again (it keeps what it wrote and writes the rest)\n`,
    );
    return EXIT.usage;
  }
  io.stdout(`\n${written.length} created, ${skipped.length} skipped (init never overwrites a file).\n`);
  const { others, unread } = workflowsOfOtherSuites(io.cwd, o, skipped);
  io.stdout(nextSteps({ ...o, preset }, written, others, unread));
  if (asked !== null && kept !== null && kept !== asked) io.stderr(`\n${keptPresetWarning(o, asked, kept)}`);
  const renamed = keptCheckNameAt(io.cwd, o.workflows, skipped, written);
  if (renamed !== null) io.stderr(`\n${renamed}`);
  const warning = subfolderWarning(o, io.cwd);
  if (warning !== '') io.stderr(`\n${warning}`);
  return EXIT.ok;
}
