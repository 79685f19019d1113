import { createRequire as __arCreateRequire } from 'node:module'; const require = __arCreateRequire(import.meta.url);
function suiteFolderNamedBy(file){let m=/^(?:(.*?)\/)?(?:fixtures|personas)\//.exec(file.replace(/\\/g,"/"));return m===null?null:m[1]??"."}export{suiteFolderNamedBy};
