import { createRequire as __arCreateRequire } from 'node:module'; const require = __arCreateRequire(import.meta.url);
import{SYNTAX_FIX,alsoMoved,onlyDuplicateKeys,yamlSyntaxIssues}from"./chunk-L7X4T774.js";import"./chunk-DEUIV3WJ.js";import"./chunk-YNUTVJLB.js";import"./chunk-KZOJM3JX.js";export{SYNTAX_FIX,alsoMoved,onlyDuplicateKeys,yamlSyntaxIssues};
