import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import type { Scope } from '../../common/auth/auth-context';
import { Clock } from '../../common/clock';
import { newId } from '../../common/ids';
import { Page, toPage, toPageRequest } from '../../common/pagination/pagination';
import { assertSandbox } from '../../common/sandbox';
import { DatabaseService, Executor } from '../../database/database.service';
import type { ChargeMethod, ChargesTable, PaymentLinksTable } from '../../database/database.types';
import { ChargeAction } from '../charges/charge-lifecycle';
import { ChargeExpiryService } from '../charges/charge-expiry.service';
import { ChargeOperationsService } from '../charges/charge-operations.service';
import { ChargePaymentService } from '../charges/charge-payment.service';
import type { ChargeItem } from '../charges/charge.presenter';
import { ChargeTransitionsService } from '../charges/charge-transitions.service';
import { ChargesRepository } from '../charges/charges.repository';
import { assertPayableByEveryMethod, priceItems } from '../checkouts/checkout-pricing';
import { CheckoutsService } from '../checkouts/checkouts.service';
import type { CheckoutView, InlineCustomerDto } from '../checkouts/dto/checkout.dto';
import { discountFor } from '../coupons/coupon-rules';
import { CouponsService } from '../coupons/coupons.service';
import { EventsService } from '../events/events.service';
import { ProductsService } from '../products/products.service';
import type {
  CreatePaymentLinkDto,
  LinkPaymentsQueryDto,
  PaymentLinkView,
  UpdatePaymentLinkDto,
} from './dto/payment-link.dto';
import {
  expiredLinkToggle,
  expiresAtNotFuture,
  linkNotAcceptingPayments,
  maxPaymentsBelowCount,
  paymentLinkNotFound,
  paymentNotFound,
} from './payment-links.errors';
import { PaymentLinkPatch, PaymentLinksRepository } from './payment-links.repository';
import { paymentLinkStatus, presentPaymentLink } from './payment-link.presenter';

const DEFAULT_METHODS: ChargeMethod[] = ['PIX', 'CARD'];

/** Reusable offers many buyers can pay; each payment is a checkout with `paymentLinkId` (API.md §9.2). */
@Injectable()
export class PaymentLinksService implements OnModuleInit {
  constructor(
    private readonly database: DatabaseService,
    private readonly links: PaymentLinksRepository,
    private readonly charges: ChargesRepository,
    private readonly transitions: ChargeTransitionsService,
    private readonly chargePayments: ChargePaymentService,
    private readonly operations: ChargeOperationsService,
    private readonly expiry: ChargeExpiryService,
    private readonly checkouts: CheckoutsService,
    private readonly products: ProductsService,
    private readonly coupons: CouponsService,
    private readonly events: EventsService,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** A checkout of a link is paid only if the link still accepts the payment, counted in the same transaction. */
  onModuleInit(): void {
    this.transitions.onTransition((scope, charge, action, trx) => this.countPayment(scope, charge, action, trx));
  }

  async create(scope: Scope, input: CreatePaymentLinkDto): Promise<PaymentLinkView> {
    const products = await this.products.findForCharge(scope, [...new Set(input.items.map((item) => item.productId))]);
    const { lines, subtotal } = priceItems(input.items, products);
    const methods = input.methods ?? DEFAULT_METHODS;
    const coupon = input.coupon === undefined ? null : await this.coupons.get(scope, { code: input.coupon.trim().toUpperCase() });
    // Every buyer pays the amount after the coupon: it must be payable by every method offered.
    const discount = coupon === null ? 0 : discountFor({ discount_kind: coupon.discountKind, discount: coupon.discount }, subtotal);
    assertPayableByEveryMethod(subtotal - discount, methods);
    const now = this.clock.nowIso();
    const row: PaymentLinksTable = {
      id: newId('plink'),
      store_id: scope.storeId,
      mode: scope.mode,
      name: input.name,
      status: 'ACTIVE',
      items: JSON.stringify(lines),
      amount: subtotal,
      methods: JSON.stringify(methods),
      coupon_code: coupon?.code ?? null,
      external_id: input.externalId ?? null,
      completion_url: input.completionUrl ?? null,
      payments_count: 0,
      max_payments: input.maxPayments ?? null,
      expires_at: this.futureOrNull(input.expiresAt),
      metadata: JSON.stringify(input.metadata ?? {}),
      created_at: now,
      updated_at: now,
    };
    await this.links.insert(row);
    return this.view(row);
  }

  async list(scope: Scope, query: { limit?: number; after?: string }): Promise<Page<PaymentLinkView>> {
    const page = toPageRequest(query);
    return toPage(await this.links.listPage(scope, page), page, (row) => this.view(row));
  }

  async get(scope: Scope, id: string): Promise<PaymentLinkView> {
    return this.view(await this.find(scope, id));
  }

  async update(scope: Scope, input: UpdatePaymentLinkDto): Promise<PaymentLinkView> {
    await this.find(scope, input.id);
    const patch: PaymentLinkPatch = { updated_at: this.clock.nowIso() };
    if (input.name !== undefined) patch.name = input.name;
    if (input.completionUrl !== undefined) patch.completion_url = input.completionUrl;
    if (input.maxPayments !== undefined) patch.max_payments = input.maxPayments;
    if (input.expiresAt !== undefined) patch.expires_at = input.expiresAt === null ? null : this.futureOrNull(input.expiresAt);
    if (input.metadata !== undefined) patch.metadata = JSON.stringify(input.metadata);
    if (!(await this.links.update(scope, input.id, patch))) throw maxPaymentsBelowCount();
    return this.get(scope, input.id);
  }

  async toggle(scope: Scope, id: string): Promise<PaymentLinkView> {
    const current = await this.find(scope, id);
    const now = this.clock.nowIso();
    if (paymentLinkStatus(current, now) === 'EXPIRED') throw expiredLinkToggle();
    await this.links.update(scope, id, { status: current.status === 'ACTIVE' ? 'INACTIVE' : 'ACTIVE', updated_at: now });
    return this.get(scope, id);
  }

  async payments(scope: Scope, query: LinkPaymentsQueryDto): Promise<Page<CheckoutView>> {
    await this.find(scope, query.id);
    await this.expiry.sweep(scope);
    const page = toPageRequest(query);
    const rows = await this.charges.listPage(scope, 'checkout', page, { paymentLinkId: query.id });
    return toPage(rows, page, (row) => this.checkouts.view(row));
  }

  /** A buyer starts paying: a PENDING checkout priced as the link offers it. */
  async startCheckout(scope: Scope, id: string, customerId: string | null = null): Promise<ChargesTable> {
    const link = await this.find(scope, id);
    this.assertAcceptsPayments(link);
    return this.database.transaction((trx) => this.checkoutOf(scope, link, customerId, trx));
  }

  /** Sandbox: a buyer pays through the link; answers the new PAID checkout. */
  async simulatePayment(scope: Scope, id: string, customer?: InlineCustomerDto): Promise<CheckoutView> {
    assertSandbox(scope);
    const link = await this.find(scope, id);
    this.assertAcceptsPayments(link);
    const customerId = await this.checkouts.resolveCustomer(scope, { customer });
    const paid = await this.database.transaction(async (trx) => {
      const checkout = await this.checkoutOf(scope, link, customerId, trx);
      const methods = JSON.parse(link.methods) as ChargeMethod[];
      return this.chargePayments.pay(scope, checkout.id, methods[0], trx);
    });
    return this.checkouts.view(paid);
  }

  /** Refunds one payment of a link: `id` is the checkout of that payment. */
  async refund(scope: Scope, checkoutId: string, reason: string | null): Promise<CheckoutView> {
    const checkout = await this.charges.findById(scope, checkoutId, undefined, 'checkout');
    if (!checkout || checkout.payment_link_id === null) throw paymentNotFound();
    return this.checkouts.view(await this.operations.refund(scope, checkoutId, 'checkout', reason));
  }

  private checkoutOf(scope: Scope, link: PaymentLinksTable, customerId: string | null, trx: Executor) {
    const lines = JSON.parse(link.items) as ChargeItem[];
    return this.checkouts.createInTransaction(
      scope,
      {
        items: lines.map((line) => ({ productId: line.productId, quantity: line.quantity })),
        pricedLines: lines,
        methods: JSON.parse(link.methods) as ChargeMethod[],
        coupon: link.coupon_code,
        customerId,
        externalId: link.external_id,
        completionUrl: link.completion_url,
        paymentLinkId: link.id,
        reserveCouponOnPayment: true,
      },
      trx,
    );
  }

  private async countPayment(scope: Scope, charge: ChargesTable, action: ChargeAction, trx: Executor): Promise<void> {
    if (action !== 'pay' || charge.payment_link_id === null) return;
    const now = this.clock.nowIso();
    if (!(await this.links.countPayment(scope, charge.payment_link_id, now, trx))) {
      throw linkNotAcceptingPayments('it is inactive, expired or at maxPayments');
    }
    if (charge.coupon_code !== null && charge.coupon_reserved === 0) {
      await this.coupons.reserve(scope, charge.coupon_code, trx);
      await this.charges.updateIfStatus(scope, charge.id, ['PAID'], { coupon_reserved: 1 }, trx);
    }
    const link = await this.links.findById(scope, charge.payment_link_id, trx);
    if (link) await this.events.record(scope, 'payment-link.paid', this.view(link), trx);
  }

  private assertAcceptsPayments(link: PaymentLinksTable): void {
    const status = paymentLinkStatus(link, this.clock.nowIso());
    if (status !== 'ACTIVE') throw linkNotAcceptingPayments(`it is ${status}`);
    if (link.max_payments !== null && link.payments_count >= link.max_payments) {
      throw linkNotAcceptingPayments('it reached maxPayments');
    }
  }

  async find(scope: Scope, id: string): Promise<PaymentLinksTable> {
    const row = await this.links.findById(scope, id);
    if (!row) throw paymentLinkNotFound();
    return row;
  }

  view(row: PaymentLinksTable): PaymentLinkView {
    return presentPaymentLink(row, this.clock.nowIso(), this.config.publicBaseUrl);
  }

  private futureOrNull(expiresAt: string | undefined): string | null {
    if (expiresAt === undefined) return null;
    const at = new Date(expiresAt);
    if (at.getTime() <= this.clock.now().getTime()) throw expiresAtNotFuture();
    return at.toISOString();
  }
}
