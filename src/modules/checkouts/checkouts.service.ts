import { Injectable } from '@nestjs/common';
import type { Scope } from '../../common/auth/auth-context';
import { Clock } from '../../common/clock';
import { DomainError } from '../../common/errors/domain-error';
import { newId } from '../../common/ids';
import { Page, toPage, toPageRequest } from '../../common/pagination/pagination';
import { assertSandbox } from '../../common/sandbox';
import type { Metadata } from '../../common/validation/metadata';
import { DatabaseService, Executor } from '../../database/database.service';
import type { ChargeMethod, ChargesTable } from '../../database/database.types';
import { ChargeExpiryService } from '../charges/charge-expiry.service';
import { ChargeOperationsService } from '../charges/charge-operations.service';
import { ChargeItem, ChargePresenter } from '../charges/charge.presenter';
import { ChargeTransitionsService } from '../charges/charge-transitions.service';
import { ChargesRepository } from '../charges/charges.repository';
import { newChargeRow } from '../charges/new-charge';
import { discountFor } from '../coupons/coupon-rules';
import { CouponsService } from '../coupons/coupons.service';
import { CustomersService } from '../customers/customers.service';
import { DisputesService } from '../disputes/disputes.service';
import type { SimulateDisputeDto } from '../disputes/dto/dispute.dto';
import { ProductsService } from '../products/products.service';
import { assertPayableByEveryMethod, priceItems } from './checkout-pricing';
import { customerChoice, methodNotOffered, unknownCustomer } from './checkouts.errors';
import type {
  CheckoutView,
  CreateCheckoutDto,
  ListCheckoutsQueryDto,
  RefundDto,
  SimulateCheckoutPaymentDto,
} from './dto/checkout.dto';

const DEFAULT_METHODS: ChargeMethod[] = ['PIX', 'CARD'];
const DEFAULT_EXPIRES_IN_SECONDS = 86_400;

/** Everything a new checkout is made of, whether created directly or by a payment link's buyer. */
export interface CheckoutSpec {
  items: { productId: string; quantity: number }[];
  /** Lines already priced (a payment link's offer): used as they are instead of the current catalogue. */
  pricedLines?: ChargeItem[];
  /**
   * Take the coupon's redemption only when the checkout is paid, not now: anyone can open a payment
   * link's checkout, and unpaid ones must not use up its coupon.
   */
  reserveCouponOnPayment?: boolean;
  methods?: ChargeMethod[];
  coupon?: string | null;
  customerId?: string | null;
  externalId?: string | null;
  returnUrl?: string | null;
  completionUrl?: string | null;
  expiresInSeconds?: number;
  paymentLinkId?: string | null;
  metadata?: Metadata;
}

@Injectable()
export class CheckoutsService {
  constructor(
    private readonly database: DatabaseService,
    private readonly charges: ChargesRepository,
    private readonly transitions: ChargeTransitionsService,
    private readonly operations: ChargeOperationsService,
    private readonly expiry: ChargeExpiryService,
    private readonly presenter: ChargePresenter,
    private readonly products: ProductsService,
    private readonly customers: CustomersService,
    private readonly coupons: CouponsService,
    private readonly disputes: DisputesService,
    private readonly clock: Clock,
  ) {}

  async create(scope: Scope, input: CreateCheckoutDto): Promise<CheckoutView> {
    const customerId = await this.resolveCustomer(scope, input);
    const row = await this.database.transaction((trx) =>
      this.createInTransaction(
        scope,
        {
          items: input.items,
          methods: input.methods,
          coupon: input.coupon,
          customerId,
          externalId: input.externalId,
          returnUrl: input.returnUrl,
          completionUrl: input.completionUrl,
          expiresInSeconds: input.expiresIn,
          metadata: input.metadata,
        },
        trx,
      ),
    );
    return this.view(row);
  }

  /**
   * Prices the items, reserves the coupon, stores the checkout and records `checkout.created`, all on
   * `trx`: a refused coupon or amount leaves nothing behind.
   */
  async createInTransaction(scope: Scope, spec: CheckoutSpec, trx: Executor): Promise<ChargesTable> {
    const { lines, subtotal } = spec.pricedLines
      ? { lines: spec.pricedLines, subtotal: spec.pricedLines.reduce((sum, line) => sum + line.unitPrice * line.quantity, 0) }
      : priceItems(spec.items, await this.products.findForCharge(scope, [...new Set(spec.items.map((item) => item.productId))], trx));
    const methods = spec.methods ?? DEFAULT_METHODS;
    let discount = 0;
    let coupon: { id: string; code: string } | null = null;
    if (spec.coupon) {
      const found = spec.reserveCouponOnPayment
        ? await this.coupons.findUsable(scope, spec.coupon, trx)
        : await this.coupons.reserve(scope, spec.coupon, trx);
      discount = discountFor(found, subtotal);
      coupon = { id: found.id, code: found.code };
    }
    const amount = subtotal - discount;
    assertPayableByEveryMethod(amount, methods);
    const now = this.clock.nowIso();
    const row = newChargeRow(
      scope,
      { id: newId('bill'), kind: 'checkout', amount, methods, metadata: spec.metadata, now },
      {
        subtotal,
        discount,
        items: JSON.stringify(lines),
        customer_id: spec.customerId ?? null,
        coupon_id: coupon?.id ?? null,
        coupon_code: coupon?.code ?? null,
        coupon_reserved: coupon !== null && !spec.reserveCouponOnPayment ? 1 : 0,
        external_id: spec.externalId ?? null,
        return_url: spec.returnUrl ?? null,
        completion_url: spec.completionUrl ?? null,
        payment_link_id: spec.paymentLinkId ?? null,
        expires_at: this.clock.isoIn((spec.expiresInSeconds ?? DEFAULT_EXPIRES_IN_SECONDS) * 1000),
      },
    );
    await this.charges.insert(row, trx);
    await this.transitions.recordEvent(scope, row, 'created', trx);
    return row;
  }

  async list(scope: Scope, query: ListCheckoutsQueryDto): Promise<Page<CheckoutView>> {
    await this.expiry.sweep(scope);
    const page = toPageRequest(query);
    const rows = await this.charges.listPage(scope, 'checkout', page, {
      status: query.status,
      externalId: query.externalId,
      customerId: query.customerId,
    });
    return toPage(rows, page, (row) => this.view(row));
  }

  async get(scope: Scope, id: string): Promise<CheckoutView> {
    return this.view(await this.operations.find(scope, id, 'checkout'));
  }

  async cancel(scope: Scope, id: string): Promise<CheckoutView> {
    return this.view(await this.operations.cancel(scope, id, 'checkout'));
  }

  async refund(scope: Scope, input: RefundDto): Promise<CheckoutView> {
    return this.view(await this.operations.refund(scope, input.id, 'checkout', input.reason ?? null));
  }

  async simulatePayment(scope: Scope, input: SimulateCheckoutPaymentDto): Promise<CheckoutView> {
    assertSandbox(scope);
    const current = await this.operations.find(scope, input.id, 'checkout');
    const offered = JSON.parse(current.methods) as ChargeMethod[];
    const method = input.method ?? offered[0];
    if (!offered.includes(method)) throw methodNotOffered(method);
    return this.view(await this.operations.simulatePayment(scope, input.id, 'checkout', method));
  }

  async simulateDispute(scope: Scope, input: SimulateDisputeDto): Promise<CheckoutView> {
    return this.view(await this.disputes.simulateOnCharge(scope, input.id, 'checkout', input.reason));
  }

  async simulateExpiration(scope: Scope, id: string): Promise<CheckoutView> {
    return this.view(await this.operations.simulateExpiration(scope, id, 'checkout'));
  }

  view(row: ChargesTable): CheckoutView {
    return this.presenter.checkout(row) as CheckoutView;
  }

  /** A customer by id, or found by taxId / created from inline details; null when neither is sent. */
  async resolveCustomer(scope: Scope, input: Pick<CreateCheckoutDto, 'customerId' | 'customer'>): Promise<string | null> {
    if (input.customerId !== undefined && input.customer !== undefined) throw customerChoice();
    if (input.customerId !== undefined) {
      try {
        return (await this.customers.get(scope, input.customerId)).id;
      } catch (error) {
        if (error instanceof DomainError && error.code === 'NOT_FOUND') throw unknownCustomer();
        throw error;
      }
    }
    if (input.customer !== undefined) {
      // Found by taxId or created: a customer is a record of its own, kept even if the checkout is refused.
      return (await this.customers.create(scope, { ...input.customer, metadata: undefined })).customer.id;
    }
    return null;
  }
}
