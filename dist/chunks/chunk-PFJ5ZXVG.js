import { createRequire as __arCreateRequire } from 'node:module'; const require = __arCreateRequire(import.meta.url);
var DEFAULT_CONTEXT={marker:"agent-replay",headSha:null,runId:null,artifactName:null,baselinesRef:null,acceptLabel:"accept-baseline",confirmLabel:"confirm-cost",summaryUrl:null,artifactUrl:null,repositoryUrl:null,acceptance:null,previous:null,trend:null};export{DEFAULT_CONTEXT};
