// What a workflow runs from the repository (src/action/workflow-runs.ts; docs/security.md, "A pull
// request that edits its own check"): its local actions and the files its `run:` steps run, read
// from the values as written; an expression, a variable or a path outside the repository is none.

import { describe, expect, it } from 'vitest';
import { actionFolders, inFolder, workflowNamed, type StepsNamed } from '../../src/action/workflow-runs.js';

describe('workflowNamed', () => {
  it('takes the local actions, and the files run lines run, working directories applied, and nothing built at run time', () => {
    const named = workflowNamed({
      defaults: { run: { 'working-directory': 'app' } },
      jobs: {
        a: {
          steps: [
            { uses: './tools/act/' },
            { uses: './' },
            { uses: 'actions/checkout@v4' },
            { uses: '../elsewhere' },
            // A runner's arguments (an option's value too), not a redirection's file, a descriptor or a comment.
            { run: 'bash scripts/x.sh --config=conf/y.json 2>&1 > out.log # then: bash nope.sh\nnode "$TOOL" ${{ inputs.file }} ../../outside.sh /etc/z.sh -v' },
            // Not run: read (node -p), printed, given to git or npm.
            { run: "node -p \"require('./package.json').version\"\necho scripts/no.sh; git add dist/index.js; npm run setup; cat < in.sh" },
            { run: 'AGENT=1 sudo -E ./start.sh &\nnohup npx tsx seed.ts | tee log.txt\nsource ./env.sh && ci/check.py', 'working-directory': '${{ github.workspace }}' },
            { run: '"$GITHUB_WORKSPACE/ci/run.sh"', 'working-directory': 'web' },
          ],
        },
        // A job's working directory is the workspace's, over the workflow's.
        b: { defaults: { run: { 'working-directory': 'svc' } }, steps: [{ run: './start.sh' }] },
        c: { uses: './.github/workflows/reusable.yml' },
      },
    });
    expect(named.actions).toEqual(['tools/act', '.']);
    expect(named.paths).toEqual(['app/scripts/x.sh', 'app/conf/y.json', 'start.sh', 'tsx', 'seed.ts', 'env.sh', 'ci/check.py', 'ci/run.sh', 'svc/start.sh']);
  });

  it('reads nothing from what is not a workflow', () => {
    expect(workflowNamed(null)).toEqual({ actions: [], paths: [] });
    expect(workflowNamed({ jobs: [1, 2] })).toEqual({ actions: [], paths: [] });
  });
});

describe('actionFolders', () => {
  it('gives a JavaScript action the folders of main, pre and post; a Docker action, or a composite one away from the root, its folder; the root composite one what its steps name', () => {
    const into: StepsNamed = { actions: [], paths: [] };
    expect(actionFolders('.', { runs: { using: 'node24', main: 'dist/index.js', post: 'dist/post/index.js' } }, into)).toEqual(['dist', 'dist/post']);
    expect(actionFolders('tools/a', { runs: { using: 'node20', main: 'index.js' } }, into)).toEqual(['tools/a']);
    expect(actionFolders('tools/d', { runs: { using: 'docker', image: 'Dockerfile' } }, into)).toEqual(['tools/d']);
    expect(actionFolders('tools/c', { runs: { using: 'composite', steps: [{ run: 'bash ${{ github.action_path }}/run.sh' }, { uses: './tools/inner' }] } }, into)).toEqual(['tools/c']);
    expect(actionFolders('.', { runs: { using: 'composite', steps: [{ run: 'bash $GITHUB_ACTION_PATH/scripts/go.sh' }] } }, into)).toEqual([]);
    expect(actionFolders('tools/x', undefined, into)).toEqual(['tools/x']);
    expect(into).toEqual({ actions: ['tools/inner'], paths: ['tools/c/run.sh', 'scripts/go.sh'] });
    expect(inFolder('dist/index.js', 'dist')).toBe(true);
    expect(inFolder('distant/index.js', 'dist')).toBe(false);
    expect(inFolder('README.md', '.')).toBe(true);
  });
});
