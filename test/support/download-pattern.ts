// The artifacts a workflow's actions/download-artifact steps take, by their `pattern`: matched as
// download-artifact matches them, with minimatch (extglob on: `?(-attempt-*)`), after the run's
// commit is put in for `${{ github.event.workflow_run.head_sha }}`.

import { createRequire } from 'node:module';

const minimatch = createRequire(import.meta.url)('minimatch') as (name: string, pattern: string) => boolean;

/** Whether download-artifact's `pattern` takes the artifact `name`, with `head` for the run's commit. */
export function patternTakes(pattern: string, name: string, head: string): boolean {
  return minimatch(name, pattern.split('${{ github.event.workflow_run.head_sha }}').join(head));
}

interface DownloadStep {
  if?: string;
  uses?: string;
  with?: Record<string, unknown>;
}

/**
 * What a report job's download steps take of the run's artifacts `names`, in order: a step whose
 * `if:` asks hashFiles of its path for nothing runs only when the steps before wrote nothing there.
 */
export function downloadsTake(steps: readonly DownloadStep[], names: readonly string[], head: string): string[] {
  const taken: string[] = [];
  const wrote = new Set<string>();
  for (const step of steps) {
    if (!step.uses?.startsWith('actions/download-artifact@')) continue;
    const path = String(step.with?.path);
    if (step.if?.includes(`hashFiles('${path}/**') == ''`) && wrote.has(path)) continue;
    const these = names.filter((n) => !taken.includes(n) && patternTakes(String(step.with?.pattern), n, head));
    if (these.length > 0) wrote.add(path);
    taken.push(...these);
  }
  return taken;
}
