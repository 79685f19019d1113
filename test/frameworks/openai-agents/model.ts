// The docs route's model: the SDK's Model interface played by the scripted conversation (no network).
import { ScriptedModel } from './route.js';

export const model = new ScriptedModel();
