import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);
import{renderJUnit,xmlAttr,xmlText}from"./chunk-ONLGSA5F.js";import"./chunk-DH7RZKVO.js";import"./chunk-YZASLWB7.js";export{renderJUnit,xmlAttr,xmlText};
