// Upload of the results artifact. In GitHub Actions, @actions/artifact; elsewhere (a laptop, a
// test) there is no artifact service, and the upload is skipped with a reason, never silently.

import { basename, dirname } from 'node:path';

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
