/**
 * List latency does not grow with the table (issue #3): GET /v1/customers/list in a store of 1,000
 * customers and in a store of 200,000, seeded directly into the database. Target: the second within
 * 1.5× of the first.
 */
const Database = require('better-sqlite3');
const { load, table } = require('./lib');
const { newId } = require('../dist/common/ids');

const SMALL = 1_000;
const LARGE = 200_000;

function seedCustomers(databaseFile, storeId, count) {
  const database = new Database(databaseFile);
  database.pragma('busy_timeout = 10000');
  const insert = database.prepare(
    `insert into customers (id, store_id, mode, email, name, cellphone, tax_id, zip_code, metadata, created_at, updated_at, deleted_at)
     values (?, ?, 'test', ?, ?, null, null, null, '{}', ?, ?, null)`,
  );
  const now = new Date().toISOString();
  database.transaction(() => {
    for (let i = 0; i < count; i += 1) insert.run(newId('cust'), storeId, `customer${i}@example.com`, `Customer ${i}`, now, now);
  })();
  database.close();
}

async function registerStore(url) {
  const response = await fetch(`${url}/v1/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Bench', email: `bench-${Date.now()}@example.com`, password: 'benchmark password' }),
  });
  const { data } = await response.json();
  return { storeId: data.store.id, key: data.apiKey.key };
}

module.exports = async function catalogue(service) {
  const small = await registerStore(service.url);
  const large = await registerStore(service.url);
  const started = Date.now();
  seedCustomers(service.databaseFile, small.storeId, SMALL);
  seedCustomers(service.databaseFile, large.storeId, LARGE);
  console.log(`\n## Catalogue: seeded ${SMALL} + ${LARGE} customers in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  const scenarios = [
    [`${SMALL} customers, first page`, small.key, '/v1/customers/list?limit=20'],
    [`${LARGE} customers, first page`, large.key, '/v1/customers/list?limit=20'],
    [`${SMALL} customers, by email`, small.key, '/v1/customers/list?email=customer500@example.com'],
    [`${LARGE} customers, by email`, large.key, '/v1/customers/list?email=customer150000@example.com'],
  ];
  const results = [];
  for (const [title, key, path] of scenarios) {
    const headers = { authorization: `Bearer ${key}` };
    await load(service.url, path, { headers, duration: 2 });
    results.push({ title, ...(await load(service.url, path, { headers })) });
  }
  // A deep page: follow cursors 50 pages into the large store, then time that page.
  let cursor = null;
  for (let i = 0; i < 50; i += 1) {
    const response = await fetch(`${service.url}/v1/customers/list?limit=100${cursor ? `&after=${cursor}` : ''}`, {
      headers: { authorization: `Bearer ${large.key}` },
    });
    cursor = (await response.json()).data.next;
  }
  results.push({
    title: `${LARGE} customers, page 51`,
    ...(await load(service.url, `/v1/customers/list?limit=20&after=${cursor}`, { headers: { authorization: `Bearer ${large.key}` } })),
  });
  table(results, [
    ['list', (r) => r.title.padEnd(34), 34],
    ['req/s', (r) => r.rps.toFixed(0), 8],
    ['mean ms', (r) => r.mean.toFixed(1), 8],
    ['p50 ms', (r) => r.p50, 7],
    ['p99 ms', (r) => r.p99, 7],
  ]);
  const ratio = results[1].mean / results[0].mean;
  console.log(`mean latency ${LARGE} vs ${SMALL}: ${ratio.toFixed(2)}x (target ≤ 1.5x: ${ratio <= 1.5 ? 'meets' : 'MISSES'})`);
};
