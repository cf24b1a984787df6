/** Firebase Auth emulator integration tests; run through `npm run test:firebase`, which starts the emulator. */
const base = require('./jest.config.js');
const shared = { ...base.projects[1] };
delete shared.displayName;

module.exports = {
  ...base,
  projects: undefined,
  ...shared,
  displayName: 'firebase',
  testMatch: ['<rootDir>/test/firebase/**/*.firebase-spec.ts'],
};
