'use strict';
// `tunnel`, as @actions/http-client imports it in the Action's bundle (scripts/bundle.mjs,
// lazyModules): loaded when an agent for a proxy is made (HTTPS_PROXY or HTTP_PROXY names one for
// GitHub's address), not at every start. docs/performance.md, "2026-12-06 (morning): what an Action
// start loads".
const load = () => require('tunnel');
exports.httpOverHttp = (options) => load().httpOverHttp(options);
exports.httpsOverHttp = (options) => load().httpsOverHttp(options);
exports.httpOverHttps = (options) => load().httpOverHttps(options);
exports.httpsOverHttps = (options) => load().httpsOverHttps(options);
