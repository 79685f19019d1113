import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);
import{renderJUnit,xmlAttr,xmlText}from"./chunk-676RHHJY.js";import"./chunk-WEMY3ENU.js";import"./chunk-YZASLWB7.js";export{renderJUnit,xmlAttr,xmlText};
