// The pure core: verdict comparison (drift), tallies, cost estimate, acceptance rules, the gate,
// and the evaluations over runs. Data in, data out: nothing here logs, reads files or talks to the
// network. This file only re-exports; the modules here import each other by name, never this file.

export * from './acceptance.js';
export * from './agreement.js';
export * from './attempts.js';
export * from './causes.js';
export * from './changes.js';
export * from './compare.js';
export * from './coverage.js';
export * from './definition.js';
export * from './drift.js';
export * from './estimate.js';
export * from './finish.js';
export * from './gate.js';
export * from './kind.js';
export * from './latency.js';
export * from './usage.js';
export * from './match.js';
export * from './older-records.js';
export * from './personas.js';
export * from './repeat.js';
export * from './reuse.js';
export * from './run-stats.js';
export * from './selection.js';
export * from './shard.js';
export * from './stats.js';
export * from './tallies.js';
export * from './variants.js';
