// The meaning ladder (docs/meaning.md): for modules outside this folder; its modules import each other by name.
export * from './facts.js';
export * from './ladder.js';
export * from './normalize.js';
export * from './number-words.js';
