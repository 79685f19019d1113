// What every mode runs with: the environment, the working directory and the side effects (GitHub,
// artifacts, and for check mode the engine's own).

import type { ArtifactStore } from './artifacts.js';
import type { EngineDeps } from '../engine.js';
import type { GitHubApi } from '../github/api.js';

export interface ActionDeps {
  env: Record<string, string | undefined>;
  cwd: string;
  github: GitHubApi | null;
  artifacts: ArtifactStore;
  engine?: EngineDeps;
  /** The time of day; default: the system's. Accept mode stamps the baselines it writes with it (`acceptedAt`). */
  wallClock?: () => Date;
}
