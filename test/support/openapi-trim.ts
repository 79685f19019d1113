// Vitest global set-up: GitHub's OpenAPI description (@octokit/openapi, 13 MB) read once per test
// run and written, without what the validator never reads (descriptions, summaries, examples,
// webhooks, x-github metadata), to a temp file of about 3 MB. Each test process that starts the
// fake GitHub server parses that copy (openapi.ts, OpenApiSpec.load) instead of the whole file:
// about a tenth of the parse, once per test file that needs it.

import { readFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Absolute path of the trimmed api.github.com description (JSON). */
    openapiFile: string;
  }
}

/** Keys the validator never reads; a schema's `properties` keep every name (a property may be called `description`). */
const DROPPED = new Set(['description', 'summary', 'example', 'examples', 'x-github', 'externalDocs', 'tags', 'x-webhooks', 'x-github-breaking-changes']);

export function trimDescription(node: unknown, parentKey: string | null = null): unknown {
  if (Array.isArray(node)) return node.map((n) => trimDescription(n));
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (parentKey !== 'properties' && DROPPED.has(key)) continue;
    out[key] = trimDescription(value, key);
  }
  return out;
}

export function fullDescriptionFile(): string {
  return createRequire(import.meta.url).resolve('@octokit/openapi/generated/api.github.com.json');
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = await mkdtemp(join(tmpdir(), 'agent-replay-test-openapi-'));
  const file = join(dir, 'api.github.com.trimmed.json');
  await writeFile(file, JSON.stringify(trimDescription(JSON.parse(await readFile(fullDescriptionFile(), 'utf8')))));
  project.provide('openapiFile', file);
  return async () => {
    await rm(dir, { recursive: true, force: true });
  };
}
