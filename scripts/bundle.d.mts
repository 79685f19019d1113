import type { BuildOptions, Plugin } from 'esbuild';
export declare const BUNDLE_OPTIONS: Readonly<BuildOptions>;
export declare const actionsUndici: Readonly<Plugin>;
export declare const LAZY_MODULES: readonly { specifier: string; importer: RegExp; kind?: string; path: string }[];
export declare const lazyModules: Readonly<Plugin>;
