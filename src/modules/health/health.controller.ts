import { Controller, Get, HttpCode, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '../../common/auth/auth.decorators';
import { DatabaseService } from '../../database/database.service';

/** Liveness and readiness probes (API.md §15); not rate limited, not enveloped. */
@ApiExcludeController()
@Public()
@Controller()
export class HealthController {
  constructor(private readonly database: DatabaseService) {}

  @Get('health')
  @HttpCode(200)
  health() {
    return { status: 'ok' };
  }

  @Get('ready')
  async ready(@Res({ passthrough: true }) response: Response) {
    const databaseUp = await this.database.ping();
    response.status(databaseUp ? 200 : 503);
    return { status: databaseUp ? 'ready' : 'unavailable', database: databaseUp ? 'up' : 'down' };
  }
}
