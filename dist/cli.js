#!/usr/bin/env node
import { createRequire as __arCreateRequire } from 'node:module'; const require = __arCreateRequire(import.meta.url);
import module from"node:module";var ci=process.env.CI;(ci===void 0||ci===""||ci==="false"||ci==="0")&&module.enableCompileCache?.();await import("./chunks/process-Q2WXMLOC.js");
