process.env.TZ = 'UTC';
process.env.E2E_DATABASE = 'postgres';
