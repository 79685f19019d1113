'use strict';
// node:http, as the bundles take it where a module imports it (scripts/bundle.mjs, lazyModules):
// required, not imported. Under Node 24 (the Action's runtime) node:http has exports read through
// getters (WebSocket, CloseEvent, MessageEvent) that load Node's own copy of undici, and
// its http2 and zlib with it; an ESM import reads every export to build the module's namespace, a
// require() reads none. Under Node 24 that import cost each start about 90 ms of CPU.
// docs/performance.md, "2026-12-06 (morning): what an Action start loads".
module.exports = require('node:http');
