import { createRequire as __arCreateRequire } from 'node:module'; const require = __arCreateRequire(import.meta.url);
import{renderConfigErrors,terminalIssue}from"./chunk-S426AMWP.js";import"./chunk-6N4PE5KB.js";import"./chunk-AA7CV2JX.js";import"./chunk-UJS4J7JO.js";import"./chunk-7CLVM3UW.js";import"./chunk-URUP6MW2.js";import"./chunk-6BPKDHAS.js";export{renderConfigErrors,terminalIssue};
