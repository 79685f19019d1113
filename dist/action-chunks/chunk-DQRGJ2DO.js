import { createRequire as __arCreateRequire } from 'node:module'; const require = __arCreateRequire(import.meta.url);
import{__commonJS,__require}from"./chunk-KZOJM3JX.js";var require_node_http=__commonJS({"scripts/lazy/node-http.cjs"(exports,module){"use strict";module.exports=__require("node:http")}});export{require_node_http};
