import { createRequire as __arCreateRequire } from 'node:module'; const require = __arCreateRequire(import.meta.url);
function unicodePattern(source,flags){return onFirstUse(()=>new RegExp(source,flags))}function onFirstUse(build){let built;return()=>(built??={value:build()}).value}export{unicodePattern,onFirstUse};
