/**
 * Charges (issue #4): a checkout created then paid with simulate-payment, as a pair, by 20 concurrent
 * clients for BENCH_DURATION seconds. Each pair is two transactions that write the charge, its ledger
 * row and its events. Prints pairs per second and the latency of each step.
 */
const { table, DURATION } = require('./lib');

const CLIENTS = 20;
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

module.exports = async function charges(service) {
  const headers = { authorization: `Bearer ${service.key}`, 'content-type': 'application/json' };
  const post = async (path, body) => {
    const started = performance.now();
    const response = await fetch(`${service.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    const json = await response.json();
    if (!json.success) throw new Error(`${path}: ${JSON.stringify(json.error)}`);
    return { data: json.data, ms: performance.now() - started };
  };
  const product = (await post('/v1/products/create', { externalId: `bench-${Date.now()}`, name: 'Bench', price: 4990 })).data;
  const createMs = [];
  const payMs = [];
  const deadline = Date.now() + DURATION * 1000;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (Date.now() < deadline) {
        const created = await post('/v1/checkouts/create', { items: [{ productId: product.id, quantity: 1 }] });
        createMs.push(created.ms);
        payMs.push((await post('/v1/checkouts/simulate-payment', { id: created.data.id, method: 'PIX' })).ms);
      }
    }),
  );
  const seconds = (Date.now() - started) / 1000;
  const balance = await fetch(`${service.url}/v1/stores/list`, { headers }).then((r) => r.json());
  const expected = payMs.length * (4990 - 80);
  createMs.sort((a, b) => a - b);
  payMs.sort((a, b) => a - b);
  console.log(`\n## Charges: create checkout + simulate-payment, ${CLIENTS} clients, ${DURATION} s, SQLite`);
  table(
    [
      { step: 'create checkout', list: createMs },
      { step: 'simulate-payment', list: payMs },
    ],
    [
      ['step', (r) => r.step.padEnd(18), 18],
      ['count', (r) => r.list.length, 7],
      ['p50 ms', (r) => percentile(r.list, 50).toFixed(1), 8],
      ['p99 ms', (r) => percentile(r.list, 99).toFixed(1), 8],
    ],
  );
  console.log(`paid checkouts per second: ${(payMs.length / seconds).toFixed(0)}`);
  console.log(`balance check: available ${balance.data.items[0].balance.available} = ${expected} expected (${balance.data.items[0].balance.available === expected ? 'ok' : 'MISMATCH'})`);
};
