// The writes of results.json in progress. An error nothing caught ends the step (src/index.ts),
// but not in the middle of one: the record is staged next to its place and renamed into it, and a
// process that exits before the rename leaves no results.json at all (src/fs-safe.ts). The end
// waits for it (docs/cli.md, "The gate and the exit status").

const writing = new Set<Promise<unknown>>();

/** `write`, counted as in progress until it settles. */
export function recordWrite<T>(write: Promise<T>): Promise<T> {
  writing.add(write);
  const done = (): void => {
    writing.delete(write);
  };
  write.then(done, done);
  return write;
}

/** Resolves once every write of results.json in progress now has settled (at once when there is none). */
export async function recordWritesSettled(): Promise<void> {
  await Promise.allSettled([...writing]);
}
