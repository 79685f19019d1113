// The suite folder a recorded item's file names: a pure reading of a path, for the report and accept
// modules alike (no file is read here, unlike repo-path.ts).

/**
 * The suite folder a recorded item's file names: a run records each item's file relative to the
 * folder it ran in (`<dir>/fixtures/...`, `<dir>/personas/...`), so `<dir>`, `.` when the run was in
 * the suite folder itself (`fixtures/a.yml`); null for a file in neither folder. What a record
 * without `suitePath` is matched by (docs/results-json.md, `suitePath`).
 */
export function suiteFolderNamedBy(file: string): string | null {
  const m = /^(?:(.*?)\/)?(?:fixtures|personas)\//.exec(file.replace(/\\/g, '/'));
  return m === null ? null : (m[1] ?? '.');
}
