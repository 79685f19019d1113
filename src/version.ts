// Kept equal to package.json's version by a test.
export const TOOL = { name: 'agent-replay', version: '0.1.0' } as const;

/**
 * Where the pages that messages cite as `docs/<page>.md` are read at this version: the package
 * does not ship docs/, so `npx agent-replay` and a pull request's comment name them at the
 * repository's tag (docs/contributing.md, "Releasing"). A test keeps it equal to package.json's repository.
 */
export const DOCS_URL = `https://github.com/agent-replay/agent-replay/blob/v${TOOL.version}/docs`;
