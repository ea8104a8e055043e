import { Body, Controller, Get, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { SessionAuth } from '../../common/auth/auth-context';
import { CurrentAuth, RequiresSession } from '../../common/auth/auth.decorators';
import { CsrfService } from '../../common/csrf/csrf.service';
import { DomainError } from '../../common/errors/domain-error';
import { FlashService } from '../../common/views/flash.service';
import { ApiKeysService } from '../api-keys/api-keys.service';
import { DashboardService } from './dashboard.service';

type FormBody = Record<string, unknown>;

const GRACE_CHOICES = [
  { seconds: 0, label: 'Stop the old key now' },
  { seconds: 3600, label: '1 hour' },
  { seconds: 86_400, label: '24 hours' },
  { seconds: 604_800, label: '7 days' },
];

const asList = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : typeof value === 'string' ? [value] : []);

/**
 * The merchant dashboard (API.md §14). Every page needs the `sess` cookie (the exception filter sends
 * anyone without one to /login); every form posts back with a CSRF token and redirects (post/redirect/get),
 * carrying a one-time message or a new secret in the encrypted flash cookie.
 */
@ApiExcludeController()
@RequiresSession()
@Controller('dashboard')
export class DashboardController {
  constructor(
    private readonly dashboard: DashboardService,
    private readonly apiKeys: ApiKeysService,
    private readonly csrf: CsrfService,
    private readonly flash: FlashService,
  ) {}

  @Get()
  async overview(@CurrentAuth() session: SessionAuth, @Req() request: Request, @Res() response: Response) {
    await this.page(session, request, response, 'dashboard/overview', { title: 'Overview', ...(await this.dashboard.overview(session)) });
  }

  @Get('payments')
  async payments(
    @CurrentAuth() session: SessionAuth,
    @Query() query: { mode?: string; status?: string; after?: string },
    @Req() request: Request,
    @Res() response: Response,
  ) {
    await this.page(session, request, response, 'dashboard/payments', { title: 'Payments', ...(await this.dashboard.payments(session, query)) });
  }

  @Get('api-keys')
  async apiKeysPage(@CurrentAuth() session: SessionAuth, @Req() request: Request, @Res() response: Response) {
    await this.page(session, request, response, 'dashboard/api-keys', {
      title: 'API keys',
      graceChoices: GRACE_CHOICES,
      ...(await this.dashboard.apiKeys(session)),
    });
  }

  @Post('api-keys/create')
  async createKey(@CurrentAuth() session: SessionAuth, @Body() body: FormBody, @Res() response: Response) {
    await this.act(response, '/dashboard/api-keys', async () => {
      const all = asList(body.permissions).includes('*');
      const created = await this.apiKeys.create(session, {
        name: String(body.name ?? '').trim(),
        mode: body.mode === 'live' ? 'live' : 'test',
        permissions: all ? ['*'] : asList(body.permissions),
      });
      return { notice: `Key "${created.name}" created.`, newKey: { name: created.name, mode: created.mode, key: created.key } };
    });
  }

  @Get('api-keys/revoke')
  async confirmRevoke(@CurrentAuth() session: SessionAuth, @Query('id') id: string, @Req() request: Request, @Res() response: Response) {
    const key = await this.apiKeys.get(session, String(id ?? ''));
    await this.page(session, request, response, 'dashboard/revoke-key', { title: 'Revoke key', key });
  }

  @Post('api-keys/revoke')
  async revokeKey(@CurrentAuth() session: SessionAuth, @Body() body: FormBody, @Res() response: Response) {
    await this.act(response, '/dashboard/api-keys', async () => {
      const key = await this.apiKeys.revoke(session, String(body.id ?? ''));
      return { notice: `Key "${key.name}" (${key.prefix}…${key.last4}) is revoked: it stops working now.` };
    });
  }

  @Post('api-keys/roll')
  async rollKey(@CurrentAuth() session: SessionAuth, @Body() body: FormBody, @Res() response: Response) {
    await this.act(response, '/dashboard/api-keys', async () => {
      const grace = Number(body.expiresInSeconds ?? 0);
      const rolled = await this.apiKeys.roll(session, {
        id: String(body.id ?? ''),
        expiresInSeconds: GRACE_CHOICES.some((choice) => choice.seconds === grace) ? grace : 0,
      });
      const when = grace === 0 ? 'The old key stopped working.' : 'The old key keeps working for the grace period you chose.';
      return { notice: `Key "${rolled.name}" rolled. ${when}`, newKey: { name: rolled.name, mode: rolled.mode, key: rolled.key } };
    });
  }

  @Get('webhooks')
  async webhooksPage(@CurrentAuth() session: SessionAuth, @Query('mode') mode: string, @Req() request: Request, @Res() response: Response) {
    await this.page(session, request, response, 'dashboard/webhooks', { title: 'Webhooks', ...(await this.dashboard.webhooks(session, mode)) });
  }

  @Post('webhooks/resend')
  async resend(@CurrentAuth() session: SessionAuth, @Body() body: FormBody, @Res() response: Response) {
    const mode = body.mode === 'live' ? 'live' : 'test';
    await this.act(response, `/dashboard/webhooks?mode=${mode}`, async () => {
      const delivery = await this.dashboard.resendDelivery(session, mode, String(body.deliveryId ?? ''));
      return { notice: `Event ${delivery.eventType} queued again (${delivery.id}).` };
    });
  }

  private async page(session: SessionAuth, request: Request, response: Response, view: string, model: Record<string, unknown>) {
    const flash = await this.flash.take(request, response);
    response.render(view, {
      ...model,
      nav: await this.dashboard.nav(session),
      flash,
      csrfToken: this.csrf.token(request, response),
    });
  }

  /** Runs a form action and redirects back with its message; a refused action comes back as an error message. */
  private async act(response: Response, back: string, action: () => Promise<Record<string, unknown>>) {
    try {
      this.flash.set(response, await action());
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      this.flash.set(response, { error: error.message });
    }
    response.redirect(303, back);
  }
}
