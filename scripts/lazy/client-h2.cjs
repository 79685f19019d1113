'use strict';
// undici's HTTP/2 client (undici/lib/dispatcher/client-h2.js), as undici's client.js takes it in
// the bundles (scripts/bundle.mjs, lazyModules): loaded on the first connection that negotiates h2.
// Its module requires node:http2 at its top, which costs every start about 13 ms of CPU (with the
// tls it loads itself in the CLI); no client of ours asks for h2 (undici's allowH2 is off), so no
// run loads it. docs/performance.md, "2026-12-06 (morning): what an Action start loads".
module.exports = function connectH2(client, socket) {
  return require('undici/lib/dispatcher/client-h2.js')(client, socket);
};
