// A trace store's failure (docs/traces.md, "When spans do not arrive"), in a module of its own so
// that the run's observer can tell it apart without loading the query client (docs/performance.md,
// "2026-12-02 (late morning): the cold start again": the span sources load only when `traces:` is set).

/** A store's failure that asking again will not mend (a refused key, a wrong URL), or that lasted until waitMs. */
export class TraceStoreError extends Error {
  override name = 'TraceStoreError';
}
