import { Injectable } from '@nestjs/common';
import type { Scope } from '../../common/auth/auth-context';
import { Clock } from '../../common/clock';
import { DomainError, notFound, validationError } from '../../common/errors/domain-error';
import { DatabaseService } from '../../database/database.service';
import type { ChargeMethod, ChargesTable, PaymentLinksTable } from '../../database/database.types';
import { ChargeOperationsService } from '../charges/charge-operations.service';
import { ChargePaymentService } from '../charges/charge-payment.service';
import { ChargePresenter } from '../charges/charge.presenter';
import { ChargesRepository } from '../charges/charges.repository';
import { pixInstructions } from '../charges/methods/payment-instruments';
import { cardBrand, passesLuhn, sandboxOutcome } from '../charges/methods/test-cards';
import { DisputesService } from '../disputes/disputes.service';
import { PaymentLinksRepository } from '../payment-links/payment-links.repository';
import { PaymentLinksService } from '../payment-links/payment-links.service';
import { paymentLinkStatus } from '../payment-links/payment-link.presenter';
import { StoresRepository } from '../stores/stores.repository';

export interface CardForm {
  number?: string;
  holderName?: string;
  expMonth?: string;
  expYear?: string;
  cvv?: string;
}

const CLOSED_MESSAGES: Partial<Record<string, string>> = {
  EXPIRED: 'This checkout has expired. Ask the store for a new payment link.',
  CANCELLED: 'This checkout was cancelled by the store.',
  REFUNDED: 'This payment was refunded.',
  FAILED: 'This payment failed.',
};

const DECLINES: Record<string, string> = {
  generic_decline: 'Your card was declined. Try another card.',
  expired_card: 'Your card has expired. Try another card.',
  incorrect_cvc: 'The security code (CVV) is incorrect.',
};

/**
 * The hosted payment page (API.md §14): what the buyer sees at /pay/<id> and what its forms do. Public:
 * the unguessable id is the capability, and the charge's own store and mode scope everything after.
 */
@Injectable()
export class PayPageService {
  constructor(
    private readonly database: DatabaseService,
    private readonly charges: ChargesRepository,
    private readonly operations: ChargeOperationsService,
    private readonly payments: ChargePaymentService,
    private readonly presenter: ChargePresenter,
    private readonly links: PaymentLinksRepository,
    private readonly paymentLinks: PaymentLinksService,
    private readonly stores: StoresRepository,
    private readonly disputes: DisputesService,
    private readonly clock: Clock,
  ) {}

  async checkoutPage(id: string) {
    const { scope, checkout } = await this.loadCheckout(id);
    const view = this.presenter.checkout(checkout);
    const methods = view.methods;
    // Live mode has no payment provider in this build (API.md §10): the buyer sees the order, not pay forms.
    const liveWithoutProvider = scope.mode === 'live' && checkout.status === 'PENDING';
    const payable = checkout.status === 'PENDING' && !liveWithoutProvider;
    const pix =
      payable && methods.includes('PIX')
        ? await pixInstructions({
            storeId: scope.storeId,
            storeName: await this.storeName(scope),
            chargeId: checkout.id,
            amount: checkout.amount,
          })
        : null;
    return {
      title: 'Checkout',
      storeName: await this.storeName(scope),
      checkout: view,
      sandbox: scope.mode === 'test',
      liveWithoutProvider,
      payable,
      paid: ['PAID', 'UNDER_DISPUTE'].includes(checkout.status),
      closedMessage: CLOSED_MESSAGES[checkout.status] ?? null,
      pix,
      card: payable && methods.includes('CARD'),
      completionUrl: checkout.completion_url,
    };
  }

  async linkPage(id: string) {
    const link = await this.loadLink(id);
    const scope = { storeId: link.store_id, mode: link.mode };
    const status = paymentLinkStatus(link, this.clock.nowIso());
    const full = link.max_payments !== null && link.payments_count >= link.max_payments;
    return {
      title: link.name,
      storeName: await this.storeName(scope),
      link: this.paymentLinks.view(link),
      accepting: status === 'ACTIVE' && !full,
    };
  }

  /** A buyer starts paying a link: a new PENDING checkout to redirect to. */
  async startLinkCheckout(id: string): Promise<string> {
    const link = await this.loadLink(id);
    const checkout = await this.paymentLinks.startCheckout({ storeId: link.store_id, mode: link.mode }, link.id);
    return checkout.id;
  }

  /** Sandbox button: pays by the chosen method exactly as the API's simulate-payment does. */
  async simulate(id: string, method: string | undefined): Promise<ChargesTable> {
    const { scope, checkout } = await this.loadCheckout(id);
    const offered = JSON.parse(checkout.methods) as ChargeMethod[];
    const chosen = (method ?? offered[0]) as ChargeMethod;
    if (!offered.includes(chosen)) throw validationError(`This checkout does not accept ${chosen}`);
    return this.operations.simulatePayment(scope, checkout.id, 'checkout', chosen);
  }

  /** Card form: sandbox test cards decide the outcome; a decline leaves the checkout PENDING to try again. */
  async payByCard(id: string, form: CardForm): Promise<ChargesTable> {
    const { scope, checkout } = await this.loadCheckout(id);
    if (!(JSON.parse(checkout.methods) as ChargeMethod[]).includes('CARD')) throw validationError('This checkout does not accept cards');
    if (scope.mode === 'live') throw validationError('Card payments are not available yet: this store has no payment provider.');
    const number = (form.number ?? '').replace(/[\s-]/g, '');
    const month = Number(form.expMonth);
    const year = Number(form.expYear);
    if (!passesLuhn(number)) throw validationError('That card number is not valid.');
    if (!(form.holderName ?? '').trim()) throw validationError('Enter the name on the card.');
    if (!/^\d{3,4}$/.test(form.cvv ?? '')) throw validationError('Enter the 3 or 4 digit security code.');
    const now = this.clock.now();
    if (!Number.isInteger(month) || month < 1 || month > 12 || !Number.isInteger(year)) throw validationError('Enter a valid expiry date.');
    if (year * 12 + month < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1) throw validationError('That card has expired.');
    const outcome = sandboxOutcome(number);
    if (!outcome.approved) throw new DomainError('CARD_DECLINED', DECLINES[outcome.reason] ?? 'Your card was declined.');
    const card = { brand: cardBrand(number), last4: number.slice(-4) };
    return this.database.transaction(async (trx) => {
      const paid = await this.payments.pay(scope, checkout.id, 'CARD', trx, 1, card);
      // The dispute test card (API.md §10.3) is approved and disputed at once.
      if (outcome.openDispute) await this.disputes.open(scope, checkout.id, 'FRAUD', trx);
      return paid;
    });
  }

  private async loadCheckout(id: string): Promise<{ scope: Scope; checkout: ChargesTable }> {
    const row = /^bill_[0-9A-Z]{26}$/.test(id) ? await this.charges.findByIdForHostedPage(id) : undefined;
    if (!row || row.kind !== 'checkout') throw notFound('Checkout');
    const scope = { storeId: row.store_id, mode: row.mode };
    return { scope, checkout: await this.operations.find(scope, id, 'checkout') };
  }

  private async loadLink(id: string): Promise<PaymentLinksTable> {
    const link = /^plink_[0-9A-Z]{26}$/.test(id) ? await this.links.findByIdForHostedPage(id) : undefined;
    if (!link) throw notFound('Payment link');
    return link;
  }

  private async storeName(scope: Scope): Promise<string> {
    return (await this.stores.findById(scope.storeId))?.name ?? 'Store';
  }
}
