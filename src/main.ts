import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Server } from 'node:http';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module';
import { AppConfig, assertDataDirWritable, ConfigError, loadConfig } from './config/app-config';
import { configureApp } from './configure-app';

const SHUTDOWN_DEADLINE_MS = 15_000;

async function bootstrap(): Promise<void> {
  let config: AppConfig;
  try {
    config = loadConfig(process.env);
    assertDataDirWritable(config);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }

  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), {
    bodyParser: false,
    bufferLogs: true,
  });
  configureApp(app, config);
  await app.listen(config.port);
  const logger = app.get(Logger);
  logger.log(`Listening on port ${config.port} (${config.database.kind}${config.redisUrl ? ', redis' : ''})`, 'Bootstrap');

  // SIGTERM: stop accepting, let in-flight requests finish, run shutdown hooks, exit.
  // The HTTP server drains first: Nest's close() runs the destroy hooks (the database among them)
  // before it closes the server, which would fail every request still in flight.
  const shutdown = (signal: string) => {
    logger.log(`${signal} received: draining`, 'Bootstrap');
    setTimeout(() => process.exit(1), SHUTDOWN_DEADLINE_MS).unref();
    drainHttp(app)
      .then(() => app.close())
      .then(() => process.exit(0))
      .catch(() => process.exit(1));
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

/**
 * Stops accepting connections and resolves once every request in flight has been answered. Keep-alive
 * connections that fall idle after their last answer are closed as they go, not after keepAliveTimeout.
 */
function drainHttp(app: NestExpressApplication): Promise<void> {
  const server = app.getHttpServer() as Server;
  return new Promise<void>((resolve) => {
    const sweeper = setInterval(() => server.closeIdleConnections(), 50);
    server.close(() => {
      clearInterval(sweeper);
      resolve();
    });
  });
}

void bootstrap();
