// The label a pull request's reviewer applies to accept its results (docs/cli.md, "What each
// command does"): the accept workflow's `accept-label` input, read from the repository's workflow
// files, since a repository may rename it. Read only when run's `next:` line names it, in a pull
// request's GitHub Actions job: one folder's listing and the few files that use the Action.

import { readdir, readFile, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { readYaml, withYamlPackage } from '../suite/yaml/index.js';

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

/**
 * The labels of a workflow's accept steps (`uses: agent-replay/agent-replay@...` with `mode: accept`):
 * each its `accept-label`, else the default; null for one written with an expression or not as text,
 * which only the run knows.
 */
function workflowAcceptLabels(data: unknown): (string | null)[] {
  const labels: (string | null)[] = [];
  for (const job of Object.values(record(record(data)?.jobs) ?? {})) {
    const steps = record(job)?.steps;
    if (!Array.isArray(steps)) continue;
    for (const s of steps) {
      const step = record(s);
      if (step === null || typeof step.uses !== 'string' || !step.uses.trim().toLowerCase().startsWith('agent-replay/agent-replay@')) continue;
      const mode = input(step, 'mode');
      if (typeof mode !== 'string' || mode.trim() !== 'accept') continue;
      // GitHub gives every input as text (`accept-label: 2024` is "2024"), trimmed as the Action reads it (inputs.ts).
      const given = input(step, 'accept-label');
      const label = typeof given === 'number' || typeof given === 'boolean' ? String(given) : given;
      if (label === undefined || label === null) labels.push(DEFAULT_ACCEPT_LABEL);
      else labels.push(typeof label === 'string' && !label.includes('${{') ? label.trim() || DEFAULT_ACCEPT_LABEL : null);
    }
  }
  return labels;
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
 * The accept label of the repository the suite folder `suiteDir` (absolute) is in, as its accept
 * workflows give it (workflowAcceptLabels); null when it cannot be told: no accept step found, one
 * whose label is an expression, two that differ (two suites' accept workflows), a file that does not
 * read, or more workflow files than are read. GitHub matches labels ignoring case: two that differ
 * only in case are one label.
 */
export async function repositoryAcceptLabel(suiteDir: string): Promise<string | null> {
  const folder = await workflowsFolder(suiteDir);
  if (folder === null) return null;
  const names = await readdir(folder).catch(() => null);
  if (names === null) return null;
  const files = names.filter((n) => /\.ya?ml$/i.test(n)).sort();
  if (files.length > MAX_WORKFLOWS) return null;
  const labels: (string | null)[] = [];
  for (const name of files) {
    const text = await readFile(join(folder, name), 'utf8').catch(() => null);
    // Only a file that names the Action is read as YAML: the others cannot hold its accept step.
    if (text === null || !text.toLowerCase().includes('agent-replay/agent-replay@')) continue;
    const data = await withYamlPackage(() => readYaml(`.github/workflows/${name}`, text, { mergeKeys: 'ordinary' }).data).catch(() => undefined);
    if (data === undefined) return null;
    labels.push(...workflowAcceptLabels(data));
  }
  const first = labels[0];
  if (first === undefined || first === null) return null;
  return labels.every((l) => l !== null && l.toLowerCase() === first.toLowerCase()) ? first : null;
}
