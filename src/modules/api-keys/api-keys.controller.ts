import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { AuthContext } from '../../common/auth/auth-context';
import { CurrentAuth, RequiresKeyManager } from '../../common/auth/auth.decorators';
import { ApiEnvelope } from '../../common/openapi/api-envelope.decorator';
import { ApiKeysService } from './api-keys.service';
import {
  ApiKeyIdDto,
  ApiKeyPageView,
  ApiKeyView,
  ApiKeyWithSecretView,
  CreateApiKeyDto,
  GetApiKeyQueryDto,
  ListApiKeysQueryDto,
  RollApiKeyDto,
  UpdateApiKeyDto,
} from './dto/api-key.dto';

@ApiTags('API keys')
@RequiresKeyManager()
@Controller('v1/api-keys')
export class ApiKeysController {
  constructor(private readonly apiKeys: ApiKeysService) {}

  @Post('create')
  @ApiEnvelope(ApiKeyWithSecretView, 201)
  create(@CurrentAuth() actor: AuthContext, @Body() body: CreateApiKeyDto) {
    return this.apiKeys.create(actor, body);
  }

  @Get('list')
  @ApiEnvelope(ApiKeyPageView)
  list(@CurrentAuth() actor: AuthContext, @Query() query: ListApiKeysQueryDto) {
    return this.apiKeys.list(actor, query);
  }

  @Get('get')
  @ApiEnvelope(ApiKeyView)
  get(@CurrentAuth() actor: AuthContext, @Query() query: GetApiKeyQueryDto) {
    return this.apiKeys.get(actor, query.id);
  }

  @Post('update')
  @HttpCode(200)
  @ApiEnvelope(ApiKeyView)
  update(@CurrentAuth() actor: AuthContext, @Body() body: UpdateApiKeyDto) {
    return this.apiKeys.update(actor, body);
  }

  @Post('revoke')
  @HttpCode(200)
  @ApiEnvelope(ApiKeyView)
  revoke(@CurrentAuth() actor: AuthContext, @Body() body: ApiKeyIdDto) {
    return this.apiKeys.revoke(actor, body.id);
  }

  @Post('roll')
  @HttpCode(200)
  @ApiEnvelope(ApiKeyWithSecretView)
  roll(@CurrentAuth() actor: AuthContext, @Body() body: RollApiKeyDto) {
    return this.apiKeys.roll(actor, body);
  }
}
