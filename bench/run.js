#!/usr/bin/env node
/**
 * `npm run bench`: starts the built service on a fresh SQLite database with the rate limit off and
 * measures, in one run with 50 connections, authenticated routes next to a bare unauthenticated route
 * of the same app (/health). Prints req/s, p50/p99 latency and the ratio to the bare route.
 * Targets (issue #2): authenticated throughput ≥ 60 % of the bare route, p99 ≤ 2× the bare p99.
 */
const autocannon = require('autocannon');
const { spawn } = require('node:child_process');
const { mkdtempSync, rmSync } = require('node:fs');
const { createServer } = require('node:net');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { randomBytes } = require('node:crypto');

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = 50;

function freePort() {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitUntilReady(url) {
  for (let i = 0; i < 100; i += 1) {
    try {
      if ((await fetch(`${url}/ready`)).ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('service did not become ready');
}

function run(url, title, path, headers = {}) {
  return new Promise((resolve, reject) => {
    autocannon({ url: `${url}${path}`, connections: CONNECTIONS, duration: DURATION, headers, title }, (error, result) =>
      error ? reject(error) : resolve(result),
    );
  });
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'pay-bench-'));
  const port = await freePort();
  const key = `sk_test_${randomBytes(20).toString('hex')}`;
  const url = `http://127.0.0.1:${port}`;
  const service = spawn(process.execPath, [join(__dirname, '..', 'dist', 'main.js')], {
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: `sqlite:${join(dataDir, 'payments.db')}`,
      DEFAULT_API_KEY: key,
      RATE_LIMIT_DISABLED: '1',
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    await waitUntilReady(url);
    const auth = { authorization: `Bearer ${key}` };
    const scenarios = [
      ['bare GET /health (no auth)', '/health', {}],
      ['GET /v1/stores/list', '/v1/stores/list', auth],
      ['GET /v1/fees/calculate', '/v1/fees/calculate?amount=10000&method=CARD&installments=3', auth],
    ];
    await run(url, 'warm-up', '/v1/stores/list', auth);
    const results = [];
    for (const [title, path, headers] of scenarios) {
      const result = await run(url, title, path, headers);
      if (result.non2xx > 0 || result.errors > 0) throw new Error(`${title}: ${result.non2xx} non-2xx, ${result.errors} errors`);
      results.push({ title, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 });
    }
    const bare = results[0];
    console.log(`\nFoundation benchmark: ${CONNECTIONS} connections, ${DURATION} s per route, SQLite, rate limit off`);
    console.log('route'.padEnd(32), 'req/s'.padStart(9), 'p50 ms'.padStart(8), 'p99 ms'.padStart(8), 'rps/bare'.padStart(9), 'p99/bare'.padStart(9));
    for (const row of results) {
      console.log(
        row.title.padEnd(32),
        row.rps.toFixed(0).padStart(9),
        String(row.p50).padStart(8),
        String(row.p99).padStart(8),
        `${((row.rps / bare.rps) * 100).toFixed(0)} %`.padStart(9),
        `${(row.p99 / Math.max(bare.p99, 1)).toFixed(2)}×`.padStart(9),
      );
    }
    for (const row of results.slice(1)) {
      const throughputOk = row.rps >= 0.6 * bare.rps;
      const latencyOk = row.p99 <= 2 * Math.max(bare.p99, 1);
      console.log(`${row.title}: throughput ${throughputOk ? 'meets' : 'MISSES'} the 60 % target, p99 ${latencyOk ? 'meets' : 'MISSES'} the 2× target`);
    }
  } finally {
    service.kill('SIGTERM');
    await new Promise((resolve) => service.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
