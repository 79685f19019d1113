// The domain's plain data. Every module speaks these types; none of them carries behaviour.
// Field names are camelCase; enum values are the snake_case words of docs/semantics.md.
// One file per concept under types/ (judge, latency, trace, verdict, tools, fixture, persona, baseline,
// boundaries, stats, record, gate; each imports only those before it); this file re-exports them all, so
// every module imports its types from here.

export * from './types/judge.js';
export * from './types/meaning.js';
export * from './types/latency.js';
export * from './types/trace.js';
export * from './types/verdict.js';
export * from './types/tools.js';
export * from './types/fixture.js';
export * from './types/persona.js';
export * from './types/baseline.js';
export * from './types/boundaries.js';
export * from './types/stats.js';
export * from './types/record.js';
export * from './types/gate.js';
