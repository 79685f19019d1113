import { createRequire as __arCreateRequire } from 'node:module'; const require = __arCreateRequire(import.meta.url);
import{SYNTAX_FIX,alsoMoved,onlyDuplicateKeys,yamlSyntaxIssues}from"./chunk-3DMASQ77.js";import"./chunk-DEUIV3WJ.js";import"./chunk-V4WKICYC.js";import"./chunk-KZOJM3JX.js";export{SYNTAX_FIX,alsoMoved,onlyDuplicateKeys,yamlSyntaxIssues};
