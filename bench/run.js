#!/usr/bin/env node
/**
 * `npm run bench`: each suite runs against the built service on its own fresh SQLite database.
 * `node bench/run.js catalogue` runs one suite; BENCH_DURATION sets the seconds per measurement.
 */
const { startService } = require('./lib');

const SUITES = {
  foundation: require('./foundation'),
  catalogue: require('./catalogue'),
  charges: require('./charges'),
  webhooks: require('./webhooks'),
};

async function main() {
  const wanted = process.argv.slice(2);
  const names = wanted.length > 0 ? wanted : Object.keys(SUITES);
  for (const name of names) {
    const suite = SUITES[name];
    if (!suite) throw new Error(`unknown bench suite ${name}; known: ${Object.keys(SUITES).join(', ')}`);
    const service = await startService();
    try {
      await suite(service);
    } finally {
      await service.stop();
    }
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
