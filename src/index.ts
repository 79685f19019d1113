// The Action's entry (action.yml runs dist/index.js, bundled from this file).
import { run } from './main.js';

await run();
