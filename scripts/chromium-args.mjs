// Headless Chromium's flags, in one place for the two that start it: scripts/screenshot-comment.mjs
// (Chromium on the command line) and the report.html browser tests (test/support/browser.ts,
// through playwright-core). No sandbox (a container's root has none to give), no GPU, and none of
// the background traffic a first start makes (QUIC, component updates, sync): a run asks the
// network for nothing.

export const CHROMIUM_ARGS = Object.freeze([
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]);
