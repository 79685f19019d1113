import type { BuildOptions, Plugin } from 'esbuild';
export declare const BUNDLE_OPTIONS: Readonly<BuildOptions>;
export declare const actionsUndici: Readonly<Plugin>;
