import { Body, Controller, Get, Param, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../../common/auth/auth.decorators';
import { CsrfService } from '../../common/csrf/csrf.service';
import { DomainError } from '../../common/errors/domain-error';
import { httpStatusOf } from '../../common/errors/error-status';
import { CardForm, PayPageService } from './pay-page.service';

/**
 * GET /pay/<checkout or payment-link id>: the buyer's page. Forms post back here (CSRF-checked by the
 * middleware) and redirect after success (post/redirect/get), so a reload never pays twice.
 */
@ApiExcludeController()
@Public()
@Controller('pay')
export class PayPageController {
  constructor(
    private readonly pages: PayPageService,
    private readonly csrf: CsrfService,
  ) {}

  @Get(':id')
  async show(@Param('id') id: string, @Req() request: Request, @Res() response: Response) {
    await this.respond(request, response, id, async () => this.render(request, response, id));
  }

  @Post(':id/checkout')
  async startFromLink(@Param('id') id: string, @Req() request: Request, @Res() response: Response) {
    await this.respond(request, response, id, async () => {
      response.redirect(303, `/pay/${await this.pages.startLinkCheckout(id)}`);
    });
  }

  @Post(':id/simulate')
  async simulate(@Param('id') id: string, @Body() body: { method?: string }, @Req() request: Request, @Res() response: Response) {
    await this.respond(request, response, id, async () => {
      const paid = await this.pages.simulate(id, body.method);
      response.redirect(303, paid.completion_url ?? `/pay/${id}`);
    });
  }

  @Post(':id/card')
  async card(@Param('id') id: string, @Body() body: CardForm, @Req() request: Request, @Res() response: Response) {
    await this.respond(request, response, id, async () => {
      const paid = await this.pages.payByCard(id, body);
      response.redirect(303, paid.completion_url ?? `/pay/${id}`);
    });
  }

  private async render(request: Request, response: Response, id: string, error?: string, status = 200) {
    const csrfToken = this.csrf.token(request, response);
    if (id.startsWith('plink_')) {
      response.status(status).render('pay/link', { ...(await this.pages.linkPage(id)), csrfToken, error });
      return;
    }
    const page = await this.pages.checkoutPage(id);
    if (page.paid && page.completionUrl && request.method === 'GET') {
      response.redirect(302, page.completionUrl);
      return;
    }
    allowFormRedirectTo(response, page.completionUrl);
    response.status(status).render('pay/checkout', { ...page, csrfToken, error });
  }

  /** Domain errors become the page again with a message (or a not-found page); nothing leaks. */
  private async respond(request: Request, response: Response, id: string, work: () => Promise<void>) {
    try {
      await work();
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      const status = httpStatusOf(error.code);
      if (error.code === 'NOT_FOUND') {
        response.status(404).render('error', { title: 'Not found', status: 404, message: 'This payment page does not exist.' });
        return;
      }
      await this.render(request, response, id, error.message, status);
    }
  }
}

/**
 * Paying redirects the buyer to `completionUrl`, another site: the browser applies this page's CSP `form-action`
 * to that redirect, so the page allows the completion URL's origin besides its own.
 */
function allowFormRedirectTo(response: Response, completionUrl: string | null): void {
  const policy = response.getHeader('content-security-policy');
  if (!completionUrl || typeof policy !== 'string') return;
  const origin = new URL(completionUrl).origin;
  response.setHeader('content-security-policy', policy.replace("form-action 'self'", `form-action 'self' ${origin}`));
}
