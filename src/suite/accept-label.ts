// The label a pull request's reviewer applies to accept its results: the accept workflow's
// `accept-label` input, read from the repository's workflow files, since a repository may rename
// it. The CLI reads it only when run's `next:` line names it, in a pull request's GitHub Actions job
// (docs/cli.md, "What each command does"); the Action's check and report steps, for the label their
// comment names (docs/action.md, "Accept: the label commits the reviewed replies"). One folder's
// listing and the few files that use the Action.

import { readdir, readFile, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { readYaml, withYamlPackage } from './yaml/index.js';

/** The accept-label input's default (action.yml). */
export const DEFAULT_ACCEPT_LABEL = 'accept-baseline';

/** The most workflow files read: a repository with more is read no further, and its label not named. */
const MAX_WORKFLOWS = 40;

const record = (v: unknown): Record<string, unknown> | null => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null);

/** A step's `with` value by its input's name, which GitHub matches ignoring case (@actions/core's INPUT_<NAME>). */
function input(step: Record<string, unknown>, name: string): unknown {
  const given = record(step.with);
  if (given === null) return undefined;
  const key = Object.keys(given).find((k) => k.toLowerCase() === name);
  return key === undefined ? undefined : given[key];
}

/** Is a step one of the Action's (`uses: agent-replay/agent-replay@...`) in `mode`? */
function stepInMode(step: Record<string, unknown>, mode: string): boolean {
  if (typeof step.uses !== 'string' || !step.uses.trim().toLowerCase().startsWith('agent-replay/agent-replay@')) return false;
  const given = input(step, 'mode');
  return typeof given === 'string' && given.trim() === mode;
}

/**
 * The labels a job's `if:` lets it run for (`github.event.label.name == 'accept-baseline'`, either
 * side, `''` a quote in the label as GitHub's expressions write it); empty when it names none.
 */
function ifLabels(condition: unknown): string[] {
  if (typeof condition !== 'string') return [];
  const text = "'((?:[^']|'')*)'";
  const pattern = new RegExp(`github\\.event\\.label\\.name\\s*==\\s*${text}|${text}\\s*==\\s*github\\.event\\.label\\.name`, 'gi');
  return [...condition.matchAll(pattern)].map((m) => (m[1] ?? m[2] ?? '').replaceAll("''", "'"));
}

/** An accept step: its label (null: only the run knows it), and the labels its job's `if:` and its own name (ifLabels), each that names one. */
interface AcceptStep {
  label: string | null;
  runsFor: string[][];
}

/**
 * The accept steps of a workflow (`uses: agent-replay/agent-replay@...` with `mode: accept`):
 * each its `accept-label`, else the default; null for one written with an expression or not as text,
 * which only the run knows.
 */
function workflowAcceptSteps(data: unknown): AcceptStep[] {
  const found: AcceptStep[] = [];
  for (const j of Object.values(record(record(data)?.jobs) ?? {})) {
    const job = record(j);
    const steps = job?.steps;
    if (!Array.isArray(steps)) continue;
    for (const s of steps) {
      const step = record(s);
      if (step === null || !stepInMode(step, 'accept')) continue;
      // GitHub gives every input as text (`accept-label: 2024` is "2024"), trimmed as the Action reads it (inputs.ts).
      const given = input(step, 'accept-label');
      const label = typeof given === 'number' || typeof given === 'boolean' ? String(given) : given;
      const runsFor = [ifLabels(job?.if), ifLabels(step.if)].filter((l) => l.length > 0);
      if (label === undefined || label === null) found.push({ label: DEFAULT_ACCEPT_LABEL, runsFor });
      else found.push({ label: typeof label === 'string' && !label.includes('${{') ? label.trim() || DEFAULT_ACCEPT_LABEL : null, runsFor });
    }
  }
  return found;
}

/** The `.github/workflows` folder of the repository `from` is in: the nearest above it, up to the repository's root (a `.git`); null when there is none. */
async function workflowsFolder(from: string): Promise<string | null> {
  for (let at = from; ; at = dirname(at)) {
    const folder = join(at, '.github', 'workflows');
    if (await stat(folder).then((s) => s.isDirectory(), () => false)) return folder;
    if (await stat(join(at, '.git')).then(() => true, () => false)) return null;
    if (dirname(at) === at) return null;
  }
}

/**
 * The workflow files of the repository `from` is in that name the Action, each from the
 * repository's root (`.github/workflows/agent-replay.yml`) with its YAML (undefined: it does not
 * read), in name order; `holds`, words every file read must hold besides. Null when there is no
 * folder, it cannot be read, or it has more files than are read. Only a file that names the Action
 * is read as YAML: the others cannot hold its steps.
 */
async function actionWorkflows(from: string, holds: readonly string[] = []): Promise<{ file: string; data: unknown }[] | null> {
  const folder = await workflowsFolder(from);
  if (folder === null) return null;
  const names = await readdir(folder).catch(() => null);
  if (names === null) return null;
  const files = names.filter((n) => /\.ya?ml$/i.test(n)).sort();
  if (files.length > MAX_WORKFLOWS) return null;
  const read: { file: string; data: unknown }[] = [];
  for (const name of files) {
    const text = await readFile(join(folder, name), 'utf8').catch(() => null);
    if (text === null || !text.toLowerCase().includes('agent-replay/agent-replay@') || !holds.every((w) => text.includes(w))) continue;
    const file = `.github/workflows/${name}`;
    read.push({ file, data: await withYamlPackage(() => readYaml(file, text, { mergeKeys: 'ordinary' }).data).catch(() => undefined) });
  }
  return read;
}

/** The accept label as the repository's accept workflows give it (acceptWorkflowLabel). */
export interface AcceptWorkflowLabel {
  /** The accept steps' one label. */
  label: string;
  /** The first workflow file that gives it, from the repository's root: `.github/workflows/agent-replay-accept.yml`. */
  file: string;
  /**
   * An accept job or step whose `if:` runs it only for other labels than the step's (GitHub compares
   * them ignoring case): its file and the first label it names; null when none. Neither label then
   * accepts anything.
   */
  runsFor: { file: string; label: string } | null;
}

/**
 * The accept label of the repository the suite folder `suiteDir` (absolute) is in, as its accept
 * workflows give it (workflowAcceptSteps); null when it cannot be told: no accept step found, one
 * whose label is an expression, two that differ (two suites' accept workflows), a file that does not
 * read, or more workflow files than are read. GitHub matches labels ignoring case: two that differ
 * only in case are one label.
 */
export async function acceptWorkflowLabel(suiteDir: string): Promise<AcceptWorkflowLabel | null> {
  const workflows = await actionWorkflows(suiteDir);
  if (workflows === null) return null;
  const steps: (AcceptStep & { file: string })[] = [];
  for (const { file, data } of workflows) {
    if (data === undefined) return null;
    steps.push(...workflowAcceptSteps(data).map((s) => ({ ...s, file })));
  }
  const first = steps[0];
  if (first === undefined || first.label === null) return null;
  const label = first.label.toLowerCase();
  if (!steps.every((s) => s.label !== null && s.label.toLowerCase() === label)) return null;
  // An if: that names labels, none of them the step's: the step never runs for its own.
  const blocks = (labels: string[]): boolean => !labels.some((l) => l.toLowerCase() === label);
  const other = steps.find((s) => s.runsFor.some(blocks));
  const waits = other?.runsFor.find(blocks)?.[0];
  return { label: first.label, file: first.file, runsFor: other === undefined || waits === undefined ? null : { file: other.file, label: waits } };
}

/**
 * The label run's `next:` line names (docs/cli.md, "What each command does"): the accept
 * workflows' (acceptWorkflowLabel); null when they do not tell it, or when an accept job's `if:`
 * waits for another label, so that neither accepts.
 */
export async function repositoryAcceptLabel(suiteDir: string): Promise<string | null> {
  const found = await acceptWorkflowLabel(suiteDir);
  return found === null || found.runsFor !== null ? null : found.label;
}

/** Does a workflow's `on:` run it on `workflow_run` of the workflow named `workflow` (its `workflows:` list names it)? YAML 1.1 reads a bare `on` key as true. */
function runsAfter(data: unknown, workflow: string): boolean {
  const top = record(data);
  const on = record(top?.on ?? top?.true);
  const names = record(on?.workflow_run)?.workflows;
  return Array.isArray(names) && names.some((n) => typeof n === 'string' && n.trim() === workflow);
}

/** Has a workflow a step of the Action with `mode: report`? */
function hasReportStep(data: unknown): boolean {
  return Object.values(record(record(data)?.jobs) ?? {}).some((j) => {
    const steps = record(j)?.steps;
    return Array.isArray(steps) && steps.some((s) => {
      const step = record(s);
      return step !== null && stepInMode(step, 'report');
    });
  });
}

/**
 * The workflow file of the repository the folder `from` (absolute) is in that comments for a run of
 * `workflow` (its name, GITHUB_WORKFLOW): on `workflow_run` of it, with a step of the Action in
 * `mode: report` (docs/action.md, "Report: combine shards, or comment for a fork"), from the
 * repository's root: `.github/workflows/agent-replay-report.yml`. Null when none is found, or when
 * the folder cannot be read.
 */
export async function reportWorkflowFile(from: string, workflow: string): Promise<string | null> {
  const found = (await actionWorkflows(from, ['workflow_run']))?.find(({ data }) => data !== undefined && runsAfter(data, workflow) && hasReportStep(data));
  return found?.file ?? null;
}
