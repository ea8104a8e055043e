import { Body, Controller, Get, HttpCode, Post, Query, Req } from '@nestjs/common';
import { ApiBody, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import type { SessionAuth } from '../../common/auth/auth-context';
import { CurrentAuth, Public, RequiresSession } from '../../common/auth/auth.decorators';
import { NoParamsDto } from '../../common/validation/no-params.dto';
import { ApiEnvelope } from '../../common/openapi/api-envelope.decorator';
import { AuthService } from './auth.service';
import { LoginDto, LoginResultView, LogoutResultView, MeView, RegisterDto, RegisterResultView } from './dto/auth.dto';

@ApiTags('Merchant accounts')
@Controller('v1/auth')
export class AuthController {
  constructor(private readonly auth: AuthService) {}

  @Public()
  @Post('register')
  @ApiEnvelope(RegisterResultView, 201)
  register(@Body() body: RegisterDto) {
    return this.auth.register(body);
  }

  @Public()
  @Post('login')
  @HttpCode(200)
  @ApiEnvelope(LoginResultView)
  login(@Body() body: LoginDto, @Req() request: Request) {
    return this.auth.login(body, request.ip ?? 'unknown');
  }

  @RequiresSession()
  @Post('logout')
  @ApiBody({ required: false, description: 'No fields', schema: { type: 'object', maxProperties: 0 } })
  @HttpCode(200)
  @ApiEnvelope(LogoutResultView)
  logout(@CurrentAuth() auth: SessionAuth, @Body() _body: NoParamsDto) {
    return this.auth.logout(auth);
  }

  @RequiresSession()
  @Get('me')
  @ApiEnvelope(MeView)
  me(@CurrentAuth() auth: SessionAuth, @Query() _query: NoParamsDto) {
    return this.auth.me(auth);
  }
}
