/// <reference path="./embedded.d.ts" />
// Files under /static/, embedded in the binary: each import is the file's path inside the executable.
import logo from './logo.svg' with { type: 'file' };
import memoryScript from './memory.js' with { type: 'file' };

export const STATIC_ASSETS: Readonly<Record<string, string>> = {
  'logo.svg': logo,
  'memory.js': memoryScript,
};
