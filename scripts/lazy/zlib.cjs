'use strict';
// node:zlib as undici's fetch takes it in the bundles (scripts/bundle.mjs, lazyModules): loaded on
// the first compressed body. undici's fetch requires it at its top and asks it at load whether zstd
// is there; its functions and constants are read only when an answer is decoded. Node's zlib costs
// every Action start about 7 ms of CPU, and a run whose answers are not compressed never needs it.
// docs/performance.md, "2026-12-06 (morning): what an Action start loads".
let zlib = null;
const load = () => (zlib ??= require('node:zlib'));
module.exports = new Proxy(
  {},
  {
    get(_, key) {
      // undici's runtime-features.js reads this at load (`typeof zlib.createZstdDecompress`): Node
      // has it where it lists zstd among its versions (22.15, 23.8 and later).
      if (key === 'createZstdDecompress' && zlib === null) return process.versions.zstd === undefined ? undefined : (options) => load().createZstdDecompress(options);
      return load()[key];
    },
    has: (_, key) => key in load(),
  },
);
