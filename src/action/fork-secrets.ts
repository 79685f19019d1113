// A fork's pull_request run gets none of the repository's secrets: GitHub passes each
// `${{ secrets.NAME }}` as an empty string, so a variable config.yml reads from one is empty
// however the secret is set. Its fix says so, rather than to check that the secret exists
// (docs/troubleshooting.md, "The Action").

import type { ConfigIssue } from '../suite/index.js';
import { docsUrl } from '../version.js';

const EMPTY = /^environment variable (\S+) is set but empty$/;

/** `errors` with the fix of each empty variable said for a fork's pull request; the others as they are. */
export function forkSecretFixes(errors: readonly ConfigIssue[]): ConfigIssue[] {
  return errors.map((issue) => {
    const name = EMPTY.exec(issue.message)?.[1];
    if (name === undefined) return issue;
    return {
      ...issue,
      fix:
        `this pull request comes from a fork, and GitHub gives a fork's pull_request run none of the repository's secrets, so ${name} is empty whatever its secret holds: ` +
        `check a fork's pull request on deployment_status, which runs with them (${docsUrl('action.md', 'Preview deployments')}), or once a maintainer pushes its branch to this repository`,
    };
  });
}
