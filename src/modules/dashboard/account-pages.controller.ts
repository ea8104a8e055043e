import { Body, Controller, Get, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import type { SessionAuth } from '../../common/auth/auth-context';
import { CurrentAuth, Public, RequiresSession } from '../../common/auth/auth.decorators';
import { CsrfService } from '../../common/csrf/csrf.service';
import { DomainError } from '../../common/errors/domain-error';
import { FlashService } from '../../common/views/flash.service';
import { validateForm } from '../../common/views/form-validation';
import { AuthService } from '../auth/auth.service';
import { LoginDto, RegisterDto } from '../auth/dto/auth.dto';
import { clearSessionCookie, SESSION_COOKIE, setSessionCookie } from './session-cookie';

type FormBody = Record<string, unknown>;

/** /register, /login and POST /logout: forms that keep what was typed (never the password) on error. */
@ApiExcludeController()
@Controller()
export class AccountPagesController {
  constructor(
    private readonly auth: AuthService,
    private readonly csrf: CsrfService,
    private readonly flash: FlashService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Public()
  @Get('register')
  async registerPage(@Req() request: Request, @Res() response: Response) {
    if (await this.signedIn(request)) return response.redirect(302, '/dashboard');
    this.render(request, response, 'account/register', { title: 'Create account', values: {} });
  }

  @Public()
  @Post('register')
  async register(@Body() body: FormBody, @Req() request: Request, @Res() response: Response) {
    const values = { name: body.name, email: body.email, storeName: body.storeName };
    const form = await validateForm(RegisterDto, body);
    if (!form.ok) return this.render(request, response, 'account/register', { title: 'Create account', values, errors: form.errors }, 400);
    try {
      const account = await this.auth.register(form.value);
      setSessionCookie(response, this.config, account.session.token, account.session.expiresAt);
      this.flash.set(response, {
        notice: 'Welcome! Your account is ready.',
        newKey: { name: account.apiKey.name, mode: account.apiKey.mode, key: account.apiKey.key },
      });
      response.redirect(303, '/dashboard');
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      const errors = error.code === 'CONFLICT' ? { email: 'An account with this email already exists. Log in instead.' } : { form: error.message };
      this.render(request, response, 'account/register', { title: 'Create account', values, errors }, error.code === 'CONFLICT' ? 409 : 400);
    }
  }

  @Public()
  @Get('login')
  async loginPage(@Req() request: Request, @Res() response: Response) {
    if (await this.signedIn(request)) return response.redirect(302, '/dashboard');
    this.render(request, response, 'account/login', { title: 'Log in', values: {}, notice: (await this.flash.take(request, response))?.notice });
  }

  @Public()
  @Post('login')
  async login(@Body() body: FormBody, @Req() request: Request, @Res() response: Response) {
    const values = { email: body.email };
    const form = await validateForm(LoginDto, body);
    if (!form.ok) return this.render(request, response, 'account/login', { title: 'Log in', values, errors: form.errors }, 400);
    try {
      const { session } = await this.auth.login(form.value, request.ip ?? 'unknown');
      setSessionCookie(response, this.config, session.token, session.expiresAt);
      response.redirect(303, '/dashboard');
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      const status = error.code === 'RATE_LIMITED' ? 429 : 401;
      this.render(request, response, 'account/login', { title: 'Log in', values, errors: { form: error.message } }, status);
    }
  }

  @RequiresSession()
  @Post('logout')
  async logout(@CurrentAuth() session: SessionAuth, @Res() response: Response) {
    await this.auth.logout(session);
    clearSessionCookie(response, this.config);
    this.flash.set(response, { notice: 'You are logged out.' });
    response.redirect(303, '/login');
  }

  private async signedIn(request: Request): Promise<boolean> {
    const token = (request.cookies as Record<string, unknown> | undefined)?.[SESSION_COOKIE];
    return typeof token === 'string' && (await this.auth.authenticate(token)) !== null;
  }

  private render(request: Request, response: Response, view: string, model: Record<string, unknown>, status = 200) {
    response.status(status).render(view, { ...model, csrfToken: this.csrf.token(request, response) });
  }
}
