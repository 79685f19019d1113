// GitHub's own event payloads (@octokit/webhooks-examples, api.github.com), for the tests that
// read an event as GitHub sends it: the Action's context, the CLI's commit.

import { createRequire } from 'node:module';

interface WebhookExamples {
  name: string;
  examples: Record<string, unknown>[];
}
const webhookExamples = createRequire(import.meta.url)('@octokit/webhooks-examples/api.github.com/index.json') as WebhookExamples[];

/** A copy of GitHub's own example of `event`, the first that `pick` takes. */
export function webhookExample(event: string, pick: (e: Record<string, unknown>) => boolean = () => true): Record<string, unknown> {
  const found = webhookExamples.find((e) => e.name === event)?.examples.find(pick);
  if (!found) throw new Error(`no ${event} example in @octokit/webhooks-examples`);
  return structuredClone(found);
}
