#!/usr/bin/env node
/**
 * The README's test command. Builds the service (some suites start the built server as a real
 * process), runs every Jest project, then prints the closing line CI reads: "N passed, N failed".
 * TEST_DATABASE_URL (PostgreSQL) and TEST_REDIS_URL add the same suites on those backends.
 */
const { spawnSync } = require('node:child_process');
const { existsSync, readFileSync, rmSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const resultsFile = join(root, '.test-results.json');
process.env.TZ = 'UTC';

const build = spawnSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) {
  console.log('0 passed, 1 failed');
  process.exit(1);
}

rmSync(resultsFile, { force: true });
const jest = spawnSync(
  'npx',
  ['jest', '--json', `--outputFile=${resultsFile}`, ...process.argv.slice(2)],
  { cwd: root, stdio: 'inherit', env: process.env },
);

let passed = 0;
let failed = 0;
let skipped = 0;
if (existsSync(resultsFile)) {
  const results = JSON.parse(readFileSync(resultsFile, 'utf8'));
  passed = results.numPassedTests;
  failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
  skipped = results.numPendingTests + results.numTodoTests;
} else {
  failed = 1;
}
console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(jest.status === 0 && failed === 0 ? 0 : 1);
