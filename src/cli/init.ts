// `agent-replay init`: from nothing to a suite and three workflows in one command. Flags only, no
// questions (it runs the same on a terminal, in CI and in a script). Every file is created
// exclusively: an existing file (or link) is never overwritten, only reported as skipped.

import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { TOOL } from '../version.js';
import { EXIT } from '../errors.js';
import { UsageError } from '../engine.js';
import type { CliIO } from './output.js';

/** The presets init writes a config for. */
export const INIT_PRESETS = ['native', 'openai-chat'] as const;
export type InitPreset = (typeof INIT_PRESETS)[number];

/** The repository of the Action, as workflows name it in `uses:`; pinned to this version's tag. */
export const ACTION_REPOSITORY = 'agent-replay/agent-replay';
export const ACTION_USES = `${ACTION_REPOSITORY}@v${TOOL.version}`;
/** The actions the workflows use besides ours, pinned to their major version tags. */
export const PINNED = { checkout: 'actions/checkout@v4', downloadArtifact: 'actions/download-artifact@v4' } as const;

export interface InitOptions {
  dir: string;
  preset: string;
  workflows: string;
}

export interface InitFile {
  /** Relative to the working directory, with forward slashes. */
  path: string;
  text: string;
}

const AGENT_SECTION: Record<InitPreset, string> = {
  native: `agent:
  # The agent's chat endpoint. In the workflows it comes from the deployment (environment_url +
  # the agent-path input) or the agent-url input, which override this; set it here to run the
  # suite from your machine (npx agent-replay run), or pass --agent-url.
  # url: http://localhost:3000/api/chat
  # native: POST {session, message, persona}, answered with {reply, route, ended, offTrack}.
  preset: native
  # Request headers. \${NAME} is read from the environment (a missing variable is an error, so
  # it is left commented out here); values from the environment are secrets, never printed.
  # headers:
  #   Authorization: "Bearer \${AGENT_TOKEN}"
  timeoutMs: 30000        # per request, in ms (1 to 600000)
  concurrency: 4          # conversations in flight
  retries: 2              # after the first attempt, on network errors, 429 and 5xx
  waitForAgent: 0         # seconds to wait for a starting preview (0 to 600); the workflow sets 60
`,
  'openai-chat': `agent:
  # The agent's chat-completions endpoint (…/v1/chat/completions). In the workflows it comes from
  # the deployment (environment_url + the agent-path input) or the agent-url input, which
  # override this; set it here to run the suite from your machine, or pass --agent-url.
  # url: http://localhost:3000/v1/chat/completions
  # openai-chat: POST {model, messages: [{role: user, content}]}, the reply read from
  # choices.0.message.content. Each fixture is one fresh conversation.
  preset: openai-chat
  model: gpt-4o-mini      # sent as "model"; use the one your endpoint serves
  # Request headers. \${NAME} is read from the environment (a missing variable is an error, so
  # it is left commented out here); values from the environment are secrets, never printed.
  # headers:
  #   Authorization: "Bearer \${AGENT_TOKEN}"
  timeoutMs: 30000        # per request, in ms (1 to 600000)
  concurrency: 4          # conversations in flight
  retries: 2              # after the first attempt, on network errors, 429 and 5xx
  waitForAgent: 0         # seconds to wait for a starting preview (0 to 600); the workflow sets 60
`,
};

function configYml(preset: InitPreset): string {
  return `# agent-replay suite: how to reach the agent, the judge and the cost cap.
# Every key is optional; action inputs and command-line flags override them.
# Check it with: npx agent-replay validate
${AGENT_SECTION[preset]}
# A judge grades replies for fixtures with a judge: assertion (an LLM call: it costs money).
# judge:
#   provider: openai      # openai (any OpenAI-compatible endpoint) | anthropic
#   model: gpt-4o-mini
#   apiKey: \${JUDGE_API_KEY}

# The estimate of a run is checked against capUsd before anything is sent; above it, nothing
# runs until someone confirms (the confirm-cost label, or --confirm-cost).
cost:
  agentTurnUsd: 0.01      # a flat guess per agent call
  judgeCallUsd: 0.005     # a flat guess per judge call
  capUsd: 0.10
`;
}

const EXAMPLE_FIXTURE = `# One fixture: a message sent in a fresh session, and what the reply must show.
# Replace it with what your agent must keep doing. Other assertion forms:
#   assert: { contains: "30 days" }                             literal, case-sensitive
#   assert: { judge: "The reply offers to help.", threshold: 0.7 }   needs a judge in config.yml
#   (no assert: a probe: the reply is recorded and compared with its baseline)
label: example-greeting
message: Hello! What can you help me with?
assert: { regex: "help", flags: "i" }
`;

/** The check workflow: a preview announced by the host (deployment_status) is replayed. */
function checkWorkflow(dir: string): string {
  return `# agent-replay: replay the suite against each preview deployment and comment on its pull request.
# Vercel, Netlify and other hosts announce a preview with a deployment_status event; the agent's
# URL is the deployment's environment_url + agent-path.
name: agent-replay
on:
  deployment_status:
permissions:
  contents: read          # check out the suite
  pull-requests: write    # find the pull request of the commit, and the sticky comment
concurrency:
  group: agent-replay-\${{ github.event.deployment.sha }}-\${{ github.event.deployment.environment }}
  cancel-in-progress: true
jobs:
  replay:
    if: github.event.deployment_status.state == 'success'
    runs-on: ubuntu-latest
    steps:
      - uses: ${PINNED.checkout}
        with:
          ref: \${{ github.event.deployment.sha }}   # the deployed commit
          persist-credentials: false
      - uses: ${ACTION_USES}
        with:
          dir: ${dir}
          agent-path: /api/chat        # the agent's path on the preview: change it to yours
          wait-for-agent: 60           # seconds a cold preview may take to answer
          fail-on: newly_failing
          # agent-headers: |
          #   Authorization: Bearer \${{ secrets.AGENT_TOKEN }}
          # judge-api-key: \${{ secrets.JUDGE_API_KEY }}
`;
}

/** The accept workflow: the accept-baseline label commits the replies the comment shows. */
function acceptWorkflow(): string {
  return `# agent-replay-accept: a maintainer's accept-baseline label commits the reviewed replies as baselines.
# It never checks out or runs the pull request's code: it reads the comment and the results artifact.
name: agent-replay-accept
on:
  pull_request_target:
    types: [labeled]
permissions:
  contents: write         # the baseline commit
  pull-requests: write    # the comment, and removing the label
  actions: read           # download the results artifact of the check
concurrency:
  group: agent-replay-accept-\${{ github.event.pull_request.number }}
  cancel-in-progress: false
jobs:
  accept:
    if: github.event.label.name == 'accept-baseline'
    runs-on: ubuntu-latest
    steps:
      - uses: ${ACTION_USES}
        with:
          mode: accept
          comment-key: agent-replay   # the check workflow's name: its comment shows the run
`;
}

/** The report workflow: comments for a check that could not (a pull_request check of a fork). */
function reportWorkflow(): string {
  return `# agent-replay-report: comments for a check that ran on a fork's pull request (read-only token).
# It runs with this repository's token and never runs the fork's code: it reads the results artifact.
# With the deployment_status check, which comments itself, it does nothing.
name: agent-replay-report
on:
  workflow_run:
    workflows: [agent-replay]
    types: [completed]
permissions:
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
          path: shards
      - id: pr
        run: echo "number=$(cat shards/*/pr-number 2>/dev/null | head -1)" >> "$GITHUB_OUTPUT"
      - uses: ${ACTION_USES}
        with:
          mode: report
          results: shards
          pr-number: \${{ steps.pr.outputs.number }}
          comment-key: agent-replay
`;
}

const slash = (p: string): string => p.split('\\').join('/');

/** The files init writes, relative to the working directory. Pure. */
export function initFiles(o: { dir: string; preset: InitPreset; workflows: string }): InitFile[] {
  const dir = slash(o.dir).replace(/\/+$/, '') || '.';
  const wf = slash(o.workflows).replace(/\/+$/, '') || '.';
  return [
    { path: `${dir}/config.yml`, text: configYml(o.preset) },
    { path: `${dir}/fixtures/example-greeting.yml`, text: EXAMPLE_FIXTURE },
    { path: `${wf}/agent-replay.yml`, text: checkWorkflow(dir) },
    { path: `${wf}/agent-replay-accept.yml`, text: acceptWorkflow() },
    { path: `${wf}/agent-replay-report.yml`, text: reportWorkflow() },
  ];
}

function checkPreset(value: string): InitPreset {
  if ((INIT_PRESETS as readonly string[]).includes(value)) return value as InitPreset;
  throw new UsageError(`--preset "${value}" is not one init can write; use one of: ${INIT_PRESETS.join(', ')}`);
}

function checkInside(cwd: string, flag: string, value: string): void {
  const rel = relative(cwd, resolve(cwd, value));
  if (isAbsolute(value) || rel.startsWith('..')) {
    throw new UsageError(`--${flag} "${value}" is outside the working directory; give a folder inside the repository, for example ${flag === 'dir' ? '.agent-replay' : '.github/workflows'}`);
  }
}

/** Creates `path` with `text` unless something (a file, a folder, a link) is already there. */
async function createExclusive(path: string, text: string): Promise<'written' | 'exists'> {
  await mkdir(dirname(path), { recursive: true });
  try {
    await writeFile(path, text, { flag: 'wx' });
    return 'written';
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return 'exists';
    throw e;
  }
}

function nextSteps(o: { dir: string; workflows: string }, written: readonly string[]): string {
  const check = `${slash(o.workflows).replace(/\/+$/, '')}/agent-replay.yml`;
  return `
Next:
  1. In ${check}, set agent-path to your agent's path on the preview (e.g. /api/chat).
     No preview host? Trigger it on pull_request and pass agent-url instead (see the README).
  2. Add secrets the agent or the judge need (Settings > Secrets and variables > Actions) and
     uncomment agent-headers / judge-api-key in the workflow.
  3. Check the suite:          npx agent-replay validate --dir ${o.dir}
     Try it on your machine:   npx agent-replay run --dir ${o.dir} --agent-url http://localhost:3000/api/chat
  4. Write fixtures for what your agent must keep doing (${o.dir}/fixtures/*.yml), commit${written.length > 0 ? ' the new files' : ''}, and
     open a pull request: the preview's deployment runs the check and comments.
`;
}

export async function runInit(o: InitOptions, io: CliIO): Promise<number> {
  const preset = checkPreset(o.preset);
  checkInside(io.cwd, 'dir', o.dir);
  checkInside(io.cwd, 'workflows', o.workflows);
  const written: string[] = [];
  const skipped: string[] = [];
  for (const f of initFiles({ dir: o.dir, preset, workflows: o.workflows })) {
    const outcome = await createExclusive(join(io.cwd, f.path), f.text);
    if (outcome === 'written') {
      written.push(f.path);
      io.stdout(`created  ${f.path}\n`);
    } else {
      skipped.push(f.path);
      io.stdout(`skipped  ${f.path} (it exists; left as it is)\n`);
    }
  }
  io.stdout(`\n${written.length} created, ${skipped.length} skipped (init never overwrites a file).\n`);
  io.stdout(nextSteps(o, written));
  return EXIT.ok;
}
