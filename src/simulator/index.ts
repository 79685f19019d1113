export { createSimulator, SIMULATOR_MAX_TOKENS, SIMULATOR_SCHEMA, SIMULATOR_TOOL, type SimulatorDeps } from './client.js';
export { simulatorConfig } from './config.js';
export { parseSimulatorObject, parseSimulatorText, EMPTY_MESSAGE } from './parse.js';
export { SIMULATOR_PROMPT_VERSION, SIMULATOR_SYSTEM_PROMPT, simulatorTranscript, simulatorUserMessage } from './prompt.js';
