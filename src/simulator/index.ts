export { createSimulator, type SimulatorDeps } from './client.js';
export { simulatorConfig } from './config.js';
export { parseSimulatorObject, parseSimulatorText } from './parse.js';
export { SIMULATOR_PROMPT_VERSION, SIMULATOR_SYSTEM_PROMPT, simulatorUserMessage } from './prompt.js';
