/**
 * Test projects. `unit` runs pure rules next to the code; `e2e-sqlite` boots the real app on a fresh
 * SQLite file per suite. With TEST_DATABASE_URL the same e2e suites run again on PostgreSQL, and with
 * TEST_REDIS_URL the rate-limit suites run again with their counters in Redis.
 */
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
      keepClassNames: true,
    },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  },
];

const common = {
  transform: { '^.+\\.ts$': swc },
  moduleFileExtensions: ['ts', 'js', 'json'],
  testEnvironment: 'node',
};

const e2e = (name, setupFile, testMatch = ['<rootDir>/test/**/*.e2e-spec.ts']) => ({
  ...common,
  displayName: name,
  testMatch,
  setupFiles: [setupFile],
  testTimeout: 60_000,
});

const projects = [
  { ...common, displayName: 'unit', testMatch: ['<rootDir>/src/**/*.spec.ts'] },
  e2e('e2e-sqlite', '<rootDir>/test/support/env-sqlite.ts'),
];
if (process.env.TEST_DATABASE_URL) projects.push(e2e('e2e-postgres', '<rootDir>/test/support/env-postgres.ts'));
if (process.env.TEST_REDIS_URL) {
  projects.push(e2e('e2e-redis', '<rootDir>/test/support/env-redis.ts', ['<rootDir>/test/**/rate-limit*.e2e-spec.ts']));
}

// The dashboard's browser suites drive Debian's Chromium (installed by .ci/run when missing).
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (require('node:fs').existsSync(chromium)) {
  projects.push({ ...e2e('browser', '<rootDir>/test/support/env-sqlite.ts', ['<rootDir>/test/browser/**/*.browser-spec.ts']) });
}

module.exports = { projects, maxWorkers: 2, testTimeout: 60_000 };
