import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);
import{renderJUnit,xmlAttr,xmlText}from"./chunk-EN3EB3D3.js";import"./chunk-JFWTLKVB.js";import"./chunk-GIATDDJX.js";import"./chunk-YZASLWB7.js";export{renderJUnit,xmlAttr,xmlText};
