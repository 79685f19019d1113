// Kept equal to package.json's version by a test.
export const TOOL = { name: 'agent-replay', version: '0.1.0' } as const;
