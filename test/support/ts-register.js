// Lets a child Node process (fault tests: a server killed and restarted) run our TypeScript sources directly, compiled
// on load by swc with the same options as jest's transform. Only our own .ts files go through it; the ESM-only
// @nestjs packages load through Node's require(esm).
const { readFileSync } = require('node:fs');
const Module = require('node:module');
const { transformSync } = require('@swc/core');

const options = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    target: 'es2022',
  },
  module: { type: 'commonjs' },
  sourceMaps: 'inline',
};

Module._extensions['.ts'] = (module, filename) => {
  const { code } = transformSync(readFileSync(filename, 'utf8'), { ...options, filename });
  module._compile(code, filename);
};
