import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);
import{renderJUnit,xmlAttr,xmlText}from"./chunk-2G2Z2XZ3.js";import"./chunk-5LDFU5VN.js";import"./chunk-YZASLWB7.js";export{renderJUnit,xmlAttr,xmlText};
