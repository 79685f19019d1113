// Reads a recorded run back from GitHub: the workflow run's results artifact, downloaded over REST
// (GitHub answers with a redirect to a zip archive), unpacked and parsed with the record schema.
// Shared by accept mode (the run the comment shows), check mode's "since the previous run" and the
// trend. Everything read is untrusted: the archive is bounded by readZip, the record by its schema.
// What is wrong is returned as data, so that each caller words it (accept refuses, check says one
// calm line or nothing); errors of GitHub itself (network, 5xx, 403) are thrown as GitHubErrors.

import { posix } from 'node:path';
import type { ArtifactInfo, GitHubApi } from '../github/api.js';
import { parseRecord } from '../record/index.js';
import type { RunRecord } from '../types.js';
import { thousands } from '../words.js';

export type RecordDownload =
  | { kind: 'ok'; record: RunRecord; artifact: ArtifactInfo }
  /** The workflow run does not exist (or the token cannot see it). */
  | { kind: 'no_run' }
  | { kind: 'not_completed'; status: string | null }
  | { kind: 'missing' }
  | { kind: 'expired' }
  /** Not a readable zip archive; `detail` says why. */
  | { kind: 'unreadable'; detail: string }
  | { kind: 'no_results' }
  /** results.json is not a valid record; `detail` is the schema's message. */
  | { kind: 'rejected'; detail: string };

export interface RecordSource {
  owner: string;
  repo: string;
  runId: number;
  /** The artifact's exact name, or a choice among the run's artifacts (e.g. the newest of ours). */
  artifact: string | ((artifacts: readonly ArtifactInfo[]) => ArtifactInfo | undefined);
  /** Look the run up first and require it to be completed (accept mode); default true. */
  checkRun?: boolean;
  /** The largest archive downloaded (tests lower it); default MAX_TOTAL_BYTES, what its entries may inflate to. */
  maxZipBytes?: number;
}

/** The results artifact of a run, as a parsed record, or what kept it from being read. */
export async function downloadRunRecord(github: GitHubApi, src: RecordSource): Promise<RecordDownload> {
  const { owner, repo, runId } = src;
  if (src.checkRun !== false) {
    const run = await github.getWorkflowRun(owner, repo, runId);
    if (run === null) return { kind: 'no_run' };
    if (run.status !== 'completed') return { kind: 'not_completed', status: run.status };
  }
  const wanted = src.artifact;
  const artifacts = await github.listRunArtifacts(owner, repo, runId, typeof wanted === 'string' ? wanted : undefined);
  const artifact = typeof wanted === 'string' ? artifacts.find((a) => a.name === wanted) : wanted(artifacts);
  if (artifact === undefined) return { kind: 'missing' };
  if (artifact.expired) return { kind: 'expired' };
  // The zip reader (yauzl, and node:zlib with it) is loaded when there is an archive to read, not
  // at every start of the Action (docs/performance.md, "2026-12-06 (morning): what an Action start loads").
  const { MAX_TOTAL_BYTES, readZip } = await import('./zip.js');
  // The archive is bounded before it is held in memory: by the size GitHub lists, and while it
  // downloads, in case the listing is wrong (docs/action.md, "Accept: the label commits the reviewed replies").
  const max = src.maxZipBytes ?? MAX_TOTAL_BYTES;
  if (artifact.sizeInBytes > max) return { kind: 'unreadable', detail: `the archive is too large (${thousands(artifact.sizeInBytes)} bytes listed, at most ${thousands(max)})` };
  const zip = await github.downloadArtifactZip(owner, repo, artifact.id, max);
  if (zip === null) return { kind: 'unreadable', detail: `the archive is larger than its listed ${thousands(artifact.sizeInBytes)} bytes (over ${thousands(max)} bytes, at most ${thousands(max)} are read)` };
  let entries;
  try {
    entries = await readZip(zip);
  } catch (e) {
    return { kind: 'unreadable', detail: (e as Error).message };
  }
  const entry = entries.find((e) => posix.basename(e.name) === 'results.json') ?? (entries.length === 1 ? entries[0] : undefined);
  if (entry === undefined) return { kind: 'no_results' };
  try {
    return { kind: 'ok', record: parseRecord(entry.data.toString('utf8'), `artifact ${artifact.name}`), artifact };
  } catch (e) {
    return { kind: 'rejected', detail: (e as Error).message };
  }
}

/** What kept a record from being read, in a few words for a log line ("the artifact has expired"). */
export function downloadProblem(d: Exclude<RecordDownload, { kind: 'ok' }>): string {
  switch (d.kind) {
    case 'no_run':
      return 'the workflow run no longer exists';
    case 'not_completed':
      return 'the workflow run has not finished';
    case 'missing':
      return 'the results artifact is missing';
    case 'expired':
      return 'the results artifact has expired';
    case 'unreadable':
      return `the results artifact could not be read (${d.detail})`;
    case 'no_results':
      return 'the results artifact holds no results.json';
    case 'rejected':
      return `the results artifact was rejected: ${d.detail}`;
  }
}
