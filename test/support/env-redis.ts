process.env.TZ = 'UTC';
process.env.E2E_DATABASE = 'sqlite';
process.env.E2E_RATE_LIMIT_STORE = 'redis';
