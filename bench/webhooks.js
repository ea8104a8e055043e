/**
 * Webhook delivery (issue #5): events are produced through the API (checkout creations, each records
 * checkout.created) while a local receiver on 127.0.0.1 answers 200. Measures deliveries per second
 * and the delay from the event's createdAt to its arrival. Targets: ≥ 300 deliveries/s on SQLite,
 * p50 delay < 200 ms.
 */
const http = require('node:http');
const { load, table } = require('./lib');

const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 2000);

function startReceiver() {
  const arrivals = [];
  const server = http.createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const event = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      arrivals.push({ at: Date.now(), createdAt: Date.parse(event.createdAt), id: request.headers['webhook-id'] });
      response.end('ok');
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, arrivals, port: server.address().port })));
}

async function api(service, path, body) {
  const response = await fetch(`${service.url}${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { authorization: `Bearer ${service.key}`, 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  return (await response.json()).data;
}

async function waitFor(predicate, deadlineMs) {
  const end = Date.now() + deadlineMs;
  while (!predicate() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 20));
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** Events at a steady rate well under capacity: the delay then shows the delivery path, not a backlog. */
async function paced(service, perSecond, seconds) {
  const receiver = await startReceiver();
  const endpoint = await api(service, '/v1/webhooks/create', { url: `http://127.0.0.1:${receiver.port}/hook`, events: ['checkout.created'] });
  const product = await api(service, '/v1/products/create', { externalId: `paced-${Date.now()}`, name: 'Bench', price: 1000 });
  const total = perSecond * seconds;
  const started = Date.now();
  for (let i = 0; i < total; i += 1) {
    const due = started + (i * 1000) / perSecond;
    if (due > Date.now()) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
    await api(service, '/v1/checkouts/create', { items: [{ productId: product.id, quantity: 1 }] });
  }
  await waitFor(() => receiver.arrivals.length >= total, 60_000);
  const delays = receiver.arrivals.map((arrival) => arrival.at - arrival.createdAt).sort((a, b) => a - b);
  await api(service, '/v1/webhooks/delete', { id: endpoint.id });
  receiver.server.close();
  return { title: `paced ${perSecond}/s × ${seconds} s, 1 endpoint`, delivered: receiver.arrivals.length, expected: total, perSecond: NaN, p50: percentile(delays, 50), p99: percentile(delays, 99) };
}

async function scenario(service, endpointsCount) {
  const receiver = await startReceiver();
  const endpoints = [];
  for (let i = 0; i < endpointsCount; i += 1) {
    endpoints.push(await api(service, '/v1/webhooks/create', { url: `http://127.0.0.1:${receiver.port}/hook/${i}`, events: ['checkout.created'] }));
  }
  const product = await api(service, '/v1/products/create', { externalId: `bench-${endpointsCount}-${Date.now()}`, name: 'Bench', price: 1000 });
  const expected = EVENTS * endpointsCount;
  const started = Date.now();
  await load(service.url, '/v1/checkouts/create', {
    method: 'POST',
    headers: { authorization: `Bearer ${service.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ items: [{ productId: product.id, quantity: 1 }] }),
    connections: 10,
    amount: EVENTS,
    duration: undefined,
  });
  await waitFor(() => receiver.arrivals.length >= expected, 120_000);
  const last = Math.max(...receiver.arrivals.map((arrival) => arrival.at));
  const first = Math.min(...receiver.arrivals.map((arrival) => arrival.at));
  const delays = receiver.arrivals.map((arrival) => arrival.at - arrival.createdAt).sort((a, b) => a - b);
  for (const endpoint of endpoints) await api(service, '/v1/webhooks/delete', { id: endpoint.id });
  receiver.server.close();
  return {
    title: `${EVENTS} events × ${endpointsCount} endpoint${endpointsCount > 1 ? 's' : ''}`,
    delivered: receiver.arrivals.length,
    expected,
    // Throughput of the delivery side: from the first arrival to the last, while events keep coming.
    perSecond: receiver.arrivals.length / (Math.max(last - first, 1) / 1000),
    sinceFirstEvent: (last - started) / 1000,
    p50: percentile(delays, 50),
    p99: percentile(delays, 99),
  };
}

module.exports = async function webhooks(service) {
  const results = [await paced(service, 50, 6), await scenario(service, 1), await scenario(service, 10)];
  console.log('\n## Webhooks: deliveries to a local receiver, SQLite (events produced by POST /v1/checkouts/create)');
  table(results, [
    ['scenario', (r) => r.title.padEnd(28), 28],
    ['delivered', (r) => `${r.delivered}/${r.expected}`, 12],
    ['deliveries/s', (r) => (Number.isNaN(r.perSecond) ? '—' : r.perSecond.toFixed(0)), 13],
    ['p50 delay ms', (r) => r.p50, 13],
    ['p99 delay ms', (r) => r.p99, 13],
  ]);
  console.log(`delay target (p50 < 200 ms, paced): ${results[0].p50 < 200 ? 'meets' : 'MISSES'}`);
  for (const r of results.slice(1)) console.log(`${r.title}: ${r.perSecond >= 300 ? 'meets' : 'MISSES'} the ≥ 300 deliveries/s target (backlog delay p50 ${r.p50} ms)`);
};
