// Upload of the results artifact. In GitHub Actions, @actions/artifact; elsewhere (a laptop, a
// test) there is no artifact service, and the upload is skipped with a reason, never silently.
// @actions/artifact logs through its own @actions/core, not through our guard (./log.ts): its
// plain lines quote the artifact's name ("Uploading artifact: <name>.zip", "Artifact <name>
// successfully finalized") and, in a zip warning, a file's path. A name or a path the runner
// could read as a workflow command (`##[`) is therefore refused here, before the library sees it
// (docs/security.md, "Agent text is data"). The names the Action makes (letters, digits, `.`, `_`,
// `-`) never are.

import { basename, dirname } from 'node:path';
import { inertText } from '../workflow-commands.js';
import { shownJson } from '../words.js';

export type UploadResult = { kind: 'uploaded'; name: string; id: number | null } | { kind: 'skipped'; name: string; reason: string };

export interface ArtifactStore {
  /** `root` is the folder the archive paths are relative to (default: the first file's folder). */
  upload(name: string, files: readonly string[], root?: string): Promise<UploadResult>;
}

export function githubArtifactStore(env: Record<string, string | undefined>): ArtifactStore {
  return {
    async upload(name, files, rootDir) {
      if (!env.ACTIONS_RUNTIME_TOKEN || !env.ACTIONS_RESULTS_URL) {
        return { kind: 'skipped', name, reason: 'no artifact service here (ACTIONS_RUNTIME_TOKEN / ACTIONS_RESULTS_URL are not set)' };
      }
      const root = rootDir ?? dirname(files[0] ?? '.');
      const refused = unloggable(name, [root, ...files]);
      if (refused !== null) return { kind: 'skipped', name, reason: refused };
      try {
        // Loaded only when there is an artifact service: it is the heaviest module we ship.
        const { DefaultArtifactClient } = await import('@actions/artifact');
        const client = new DefaultArtifactClient();
        const res = await client.uploadArtifact(name, [...files], root, { retentionDays: 30 });
        return { kind: 'uploaded', name, id: res.id ?? null };
      } catch (e) {
        return { kind: 'skipped', name, reason: `upload failed: ${(e as Error).message} (${files.map((f) => basename(f)).join(', ')})` };
      }
    },
  };
}

/** The names the Action gives its artifacts: `agent-replay-results-<sha>[-shard-i-of-n][-attempt-n]`, `agent-replay-baselines-<sha>...`. */
const ARTIFACT_NAME_RE = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** Why @actions/artifact must not be given this name or these paths (it would log them unguarded), or null. */
function unloggable(name: string, paths: readonly string[]): string | null {
  if (!ARTIFACT_NAME_RE.test(name)) {
    return `the artifact name ${shownJson(name)} holds other characters than letters, digits, '.', '_' and '-': @actions/artifact writes it to the step's log as it is, where a workflow command could be read in it, so nothing was uploaded. This is a bug in agent-replay: please report it`;
  }
  const path = paths.find((p) => /[\r\n]/.test(p) || inertText(p) !== p);
  if (path !== undefined) {
    return `the path ${shownJson(path)} holds "##[" or a line break: @actions/artifact may write it to the step's log as it is, where the runner would read a workflow command in it, so nothing was uploaded. Give the results-path input (or the dir input) a folder without them`;
  }
  return null;
}
