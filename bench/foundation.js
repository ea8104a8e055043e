/**
 * Authenticated routes next to a bare unauthenticated route (/health) of the same app, same run.
 * Targets (issue #2): authenticated throughput ≥ 60 % of the bare route, p99 ≤ 2× the bare p99.
 */
const { load, table, CONNECTIONS, DURATION } = require('./lib');

module.exports = async function foundation(service) {
  const auth = { authorization: `Bearer ${service.key}` };
  const scenarios = [
    ['bare GET /health (no auth)', '/health', {}],
    ['GET /v1/stores/list', '/v1/stores/list', auth],
    ['GET /v1/fees/calculate', '/v1/fees/calculate?amount=10000&method=CARD&installments=3', auth],
  ];
  await load(service.url, '/v1/stores/list', { headers: auth, duration: 3 });
  const results = [];
  for (const [title, path, headers] of scenarios) results.push({ title, ...(await load(service.url, path, { headers })) });
  const bare = results[0];
  console.log(`\n## Foundation: ${CONNECTIONS} connections, ${DURATION} s per route, SQLite, rate limit off`);
  table(results, [
    ['route', (r) => r.title.padEnd(30), 30],
    ['req/s', (r) => r.rps.toFixed(0), 8],
    ['p50 ms', (r) => r.p50, 7],
    ['p99 ms', (r) => r.p99, 7],
    ['rps/bare', (r) => `${((r.rps / bare.rps) * 100).toFixed(0)} %`, 9],
    ['p99/bare', (r) => `${(r.p99 / Math.max(bare.p99, 1)).toFixed(2)}x`, 9],
  ]);
  for (const row of results.slice(1)) {
    const throughput = row.rps >= 0.6 * bare.rps ? 'meets' : 'MISSES';
    const latency = row.p99 <= 2 * Math.max(bare.p99, 1) ? 'meets' : 'MISSES';
    console.log(`${row.title}: throughput ${throughput} the 60 % target, p99 ${latency} the 2x target`);
  }
};
