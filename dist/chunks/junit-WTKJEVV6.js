import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);
import{renderJUnit,xmlAttr,xmlText}from"./chunk-BZUCEYSX.js";import"./chunk-O56MEN7V.js";import"./chunk-GIATDDJX.js";import"./chunk-YZASLWB7.js";export{renderJUnit,xmlAttr,xmlText};
