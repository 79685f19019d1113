// The names a suite folder's configuration file may have (docs/configuration.md): config.yml, else
// config.yaml. Imports nothing, so that every module that names the file (the loader, the reports'
// refusals) takes the name from here, and the file the suite has from Suite.configName.

/** The names a suite folder's configuration file may have, the first preferred (the one a new suite creates). */
export const CONFIG_NAMES: readonly string[] = ['config.yml', 'config.yaml'];

/** The name a message gives the config file when the suite has none: the one to create. */
export const NEW_CONFIG_NAME = CONFIG_NAMES[0] as string;

/** The file as a text read before any suite is (the CLI's help) names it: either name. */
export const EITHER_CONFIG_NAME = `${CONFIG_NAMES[0] as string} (or ${CONFIG_NAMES[1] as string})`;
