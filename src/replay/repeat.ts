// Repeat (docs/fixtures.md, "Repeat: measure flakiness instead of suffering it"): each attempt of a
// repeated item is replayed as an ordinary item in its own session; the attempts are made into the
// item's one record by evaluate/finish.ts.

/** The session of attempt `k` (1-based): the item's own session when it runs once, else suffixed `-k`. */
export function attemptSession(session: string, k: number, count: number): string {
  return count <= 1 ? session : `${session}-${k}`;
}
