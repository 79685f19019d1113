// Vitest global set-up: GitHub's OpenAPI description (@octokit/openapi, 13 MB) read once per test
// run and written, without what the validator never reads (descriptions, summaries, examples,
// webhooks, x-github metadata), to a file of about 3 MB. Each test process that starts the
// fake GitHub server parses that copy (openapi.ts, OpenApiSpec.load) instead of the whole file:
// about a tenth of the parse, once per test file that needs it. The copy is kept in the set-up
// cache (setup-cache.ts) under the hash of the whole description and of this file, so a
// run with the same description reuses it.

import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { cachedEntry, hashOf, keepEntry, newEntryFolder } from './setup-cache.js';

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

export default async function setup(project: TestProject): Promise<void> {
  const full = await readFile(fullDescriptionFile());
  // This file's text stands for the trimming (DROPPED, trimDescription).
  const key = hashOf([await readFile(fileURLToPath(import.meta.url)), full]);
  let dir = await cachedEntry('openapi', key);
  if (dir === null) {
    const made = await newEntryFolder('openapi');
    await writeFile(join(made, 'api.github.com.trimmed.json'), JSON.stringify(trimDescription(JSON.parse(full.toString('utf8')))));
    dir = await keepEntry(made, 'openapi', key);
  }
  project.provide('openapiFile', join(dir, 'api.github.com.trimmed.json'));
}
