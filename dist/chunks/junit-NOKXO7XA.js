import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);
import{renderJUnit,xmlAttr,xmlText}from"./chunk-EOGSMIMQ.js";import"./chunk-TGZ22J6Y.js";import"./chunk-GIATDDJX.js";import"./chunk-YZASLWB7.js";export{renderJUnit,xmlAttr,xmlText};
