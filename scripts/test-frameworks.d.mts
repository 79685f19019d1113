export declare function installDecision(dir: string): { action: 'ready' } | { action: 'install' } | { action: 'refuse'; message: string };
