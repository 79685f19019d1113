// Where `run` writes results.json when no --out is given: a `results/` folder inside the suite
// folder that ignores itself in git (its own .gitignore says `*`, as pytest's cache folder does), so
// a first run leaves nothing for `git status` to show, with or without `init`. See the README's
// quickstart and docs/cli.md, "What each command does".

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createFileExclusively, repositoryFor } from '../fs-safe.js';

const RESULTS_FOLDER = 'results';

/** The default --out, relative to the working directory, for the suite folder `dir`. */
export function defaultOut(dir: string): string {
  return join(dir, RESULTS_FOLDER, 'results.json');
}

export const RESULTS_GITIGNORE = '# Written by agent-replay: run results stay out of git (delete this file to commit them).\n*\n';

/**
 * Creates `<folder>/.gitignore` ignoring everything in it, unless a file is already there, or the
 * folder already holds a results.json: a folder with results and no .gitignore is one whose
 * .gitignore was deleted to commit them, as the file itself says to do, and a later run must not
 * ignore them again (as pytest writes its cache folder's .gitignore only with the folder).
 */
export async function ensureIgnoredFolder(folder: string): Promise<void> {
  if (existsSync(join(folder, 'results.json'))) return;
  const target = join(folder, '.gitignore');
  await createFileExclusively(target, RESULTS_GITIGNORE, { within: repositoryFor(target) });
}

/**
 * `report`'s refusal with no --results: it reads only the files it is given (docs/cli.md), and the
 * file a `run` wrote in `cwd`'s default suite folder is named, with the command, when it is there.
 */
export function noResultsGiven(cwd: string): string {
  const last = `.agent-replay/${RESULTS_FOLDER}/results.json`;
  const said = 'report needs at least one --results file';
  return existsSync(join(cwd, last)) ? `${said}: the last run's is ${last} (agent-replay report --results ${last})` : said;
}
