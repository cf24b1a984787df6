#!/usr/bin/env node
/**
 * Writes the generated tables of docs/configuration.md (environment variables and server configuration settings)
 * from the code: see scripts/docs/configuration-doc.ts. `--verify` only checks that the file is current.
 *
 * Usage: npm run docs:configuration [-- --verify]
 */
const { readFileSync, writeFileSync } = require('node:fs');
const Module = require('node:module');
const { join } = require('node:path');
const { transformSync } = require('@swc/core');

// Our TypeScript sources compiled on load by swc, as jest's transform compiles them (no build needed).
Module._extensions['.ts'] = (module, filename) => {
  const { code } = transformSync(readFileSync(filename, 'utf8'), {
    filename,
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
    module: { type: 'commonjs' },
  });
  module._compile(code, filename);
};

const { CONFIGURATION_DOC, ROOT, renderConfigurationDoc } = require('./docs/configuration-doc.ts');

const file = join(ROOT, CONFIGURATION_DOC);
const current = readFileSync(file, 'utf8');
const fresh = renderConfigurationDoc(current);
if (process.argv.includes('--verify')) {
  if (fresh !== current) {
    console.error(`${CONFIGURATION_DOC} is out of date: run npm run docs:configuration`);
    process.exit(1);
  }
  console.log(`${CONFIGURATION_DOC} is current`);
} else if (fresh === current) {
  console.log(`${CONFIGURATION_DOC} unchanged`);
} else {
  writeFileSync(file, fresh);
  console.log(`${CONFIGURATION_DOC} written`);
}
