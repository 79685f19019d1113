import { createRequire as __arCreateRequire } from 'node:module'; const require = __arCreateRequire(import.meta.url);
import{SYNTAX_FIX,alsoMoved,onlyDuplicateKeys,yamlSyntaxIssues}from"./chunk-2RTKU463.js";import"./chunk-DEUIV3WJ.js";import"./chunk-WPLXFMLC.js";import"./chunk-KZOJM3JX.js";export{SYNTAX_FIX,alsoMoved,onlyDuplicateKeys,yamlSyntaxIssues};
