// The writes of results.json in progress. An error nothing caught ends the step (src/index.ts),
// but not in the middle of one: the record is staged next to its place and renamed into it, and a
// process that exits before the rename leaves no results.json at all (src/fs-safe.ts). The end
// waits for it, a few seconds at most: a write stuck on a hung file system would otherwise hold
// the step until the job's timeout (docs/cli.md, "The gate and the exit status").

/** Each write in progress, and the file it writes. */
const writing = new Map<Promise<unknown>, string>();

/** `write` of the file `path`, counted as in progress until it settles. */
export function recordWrite<T>(path: string, write: Promise<T>): Promise<T> {
  writing.set(write, path);
  const done = (): void => {
    writing.delete(write);
  };
  write.then(done, done);
  return write;
}

/**
 * Resolves once every write of results.json in progress now has settled (at once when there is
 * none), or after `limitMs`, whichever comes first: with the files of the writes that had not
 * settled by then (none when all did).
 */
export async function recordWritesSettled(limitMs: number): Promise<string[]> {
  const pending = [...writing];
  if (pending.length === 0) return [];
  const unsettled = new Set(pending.map(([write]) => write));
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.all(pending.map(([write]) => write.then(() => unsettled.delete(write), () => unsettled.delete(write)))),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, limitMs);
    }),
  ]);
  clearTimeout(timer);
  return pending.filter(([write]) => unsettled.has(write)).map(([, path]) => path);
}
