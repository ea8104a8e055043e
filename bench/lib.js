/** Shared pieces of the benchmarks: a built service on a fresh SQLite database, and autocannon runs. */
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
  for (let i = 0; i < 150; i += 1) {
    try {
      if ((await fetch(`${url}/ready`)).ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('service did not become ready');
}

/** Starts `dist/main.js` on a fresh SQLite database with the rate limit off. */
async function startService() {
  const dataDir = mkdtempSync(join(tmpdir(), 'pay-bench-'));
  const port = await freePort();
  const key = `sk_test_${randomBytes(20).toString('hex')}`;
  const url = `http://127.0.0.1:${port}`;
  const databaseFile = join(dataDir, 'payments.db');
  const child = spawn(process.execPath, [join(__dirname, '..', 'dist', 'main.js')], {
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: `sqlite:${databaseFile}`,
      DEFAULT_API_KEY: key,
      RATE_LIMIT_DISABLED: '1',
      PASSWORD_HASH_COST_LOG2: '12',
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await waitUntilReady(url);
  return {
    url,
    key,
    databaseFile,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function load(url, path, { headers = {}, method = 'GET', body, duration = DURATION, connections = CONNECTIONS, amount } = {}) {
  return new Promise((resolve, reject) => {
    autocannon(
      { url: `${url}${path}`, connections, headers, method, body, ...(amount ? { amount } : { duration }) },
      (error, result) => {
        if (error) return reject(error);
        if (result.non2xx > 0 || result.errors > 0) {
          return reject(new Error(`${method} ${path}: ${result.non2xx} non-2xx, ${result.errors} errors`));
        }
        resolve({ rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, mean: result.latency.mean });
      },
    );
  });
}

function table(rows, columns) {
  console.log(columns.map(([title, , width]) => title.padStart(width)).join(' '));
  for (const row of rows) console.log(columns.map(([, value, width]) => String(value(row)).padStart(width)).join(' '));
}

module.exports = { startService, load, table, DURATION, CONNECTIONS };
