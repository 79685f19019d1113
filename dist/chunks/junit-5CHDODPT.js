import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);
import{renderJUnit,xmlAttr,xmlText}from"./chunk-RCJGG72Y.js";import"./chunk-7Q2Y7ZMN.js";import"./chunk-YZASLWB7.js";export{renderJUnit,xmlAttr,xmlText};
