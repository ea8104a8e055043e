import { Injectable } from '@nestjs/common';
import type { Scope } from '../../common/auth/auth-context';
import { Clock } from '../../common/clock';
import { newId } from '../../common/ids';
import { Page, toPage, toPageRequest } from '../../common/pagination/pagination';
import { assertSandbox } from '../../common/sandbox';
import { normalizeTaxId } from '../../common/validation/tax-id';
import { DatabaseService } from '../../database/database.service';
import type { ChargeMethod, ChargesTable } from '../../database/database.types';
import { ChargeExpiryService } from '../charges/charge-expiry.service';
import { ChargeOperationsService } from '../charges/charge-operations.service';
import { ChargePaymentService } from '../charges/charge-payment.service';
import { ChargeCustomer, ChargePresenter } from '../charges/charge.presenter';
import { ChargeTransitionsService } from '../charges/charge-transitions.service';
import { ChargesRepository } from '../charges/charges.repository';
import { newChargeRow } from '../charges/new-charge';
import { MAX_BOLETO_AMOUNT } from '../charges/methods/boleto';
import { boletoInstructions, pixInstructions } from '../charges/methods/payment-instruments';
import { cardBrand, CardOutcome, passesLuhn, sandboxOutcome } from '../charges/methods/test-cards';
import { DisputesService } from '../disputes/disputes.service';
import type { DisputeReason } from '../../database/database.types';
import { calculateFee } from '../fees/fee-schedule';
import { StoresRepository } from '../stores/stores.repository';
import type {
  CreateTransparentDto,
  ListTransparentsQueryDto,
  TransparentCheckView,
  TransparentDataDto,
  TransparentView,
} from './dto/transparent.dto';
import {
  boletoAmountTooLarge,
  boletoNeedsPayer,
  cardDeclined,
  cardExpired,
  cardNumberInvalid,
  cardRequired,
  dueDateInvalid,
  fieldNotForMethod,
  invalidCustomerTaxId,
  liveCardUnavailable,
} from './transparents.errors';

const ID_PREFIX: Record<ChargeMethod, string> = { PIX: 'pix_char', BOLETO: 'bole', CARD: 'card' };
const FIELDS_OF: Record<ChargeMethod, (keyof TransparentDataDto)[]> = {
  PIX: ['expiresIn'],
  BOLETO: ['dueDate'],
  CARD: ['card', 'installments'],
};
const DEFAULT_PIX_EXPIRES_IN = 3600;
const DEFAULT_BOLETO_DAYS = 3;
const DAY_MS = 86_400_000;

/** Transparent (embedded) charges: the merchant's own page collects the payment (API.md §9.3). */
@Injectable()
export class TransparentsService {
  constructor(
    private readonly database: DatabaseService,
    private readonly charges: ChargesRepository,
    private readonly transitions: ChargeTransitionsService,
    private readonly payments: ChargePaymentService,
    private readonly operations: ChargeOperationsService,
    private readonly expiry: ChargeExpiryService,
    private readonly presenter: ChargePresenter,
    private readonly stores: StoresRepository,
    private readonly disputes: DisputesService,
    private readonly clock: Clock,
  ) {}

  async create(scope: Scope, input: CreateTransparentDto): Promise<TransparentView> {
    const { method, data } = input;
    for (const [other, fields] of Object.entries(FIELDS_OF)) {
      if (other === method) continue;
      for (const field of fields) if (data[field] !== undefined) throw fieldNotForMethod(field, method);
    }
    const installments = data.installments ?? 1;
    calculateFee(data.amount, method, installments);
    const customer = customerSnapshot(data);
    const id = newId(ID_PREFIX[method]);
    const now = this.clock.nowIso();
    const row = this.baseRow(scope, id, method, data, customer, installments, now);
    let outcome: CardOutcome | null = null;

    if (method === 'PIX') {
      const store = await this.stores.findById(scope.storeId);
      const pix = await pixInstructions({
        storeId: scope.storeId,
        storeName: store?.name ?? 'Loja',
        chargeId: id,
        amount: data.amount,
        description: data.description,
      });
      row.pix_br_code = pix.brCode;
      row.pix_qr_png = pix.qrPng;
      // From the creation time, not from after the QR image was drawn: expiresAt = createdAt + expiresIn.
      row.expires_at = new Date(Date.parse(now) + (data.expiresIn ?? DEFAULT_PIX_EXPIRES_IN) * 1000).toISOString();
    } else if (method === 'BOLETO') {
      if (!customer?.name || !customer.taxId) throw boletoNeedsPayer();
      if (data.amount > MAX_BOLETO_AMOUNT) throw boletoAmountTooLarge();
      const dueDate = this.dueDateOf(data.dueDate);
      const boleto = boletoInstructions({ chargeId: id, amount: data.amount, dueDate });
      row.boleto_due_date = dueDate;
      row.boleto_barcode = boleto.barCode;
      row.boleto_digitable_line = boleto.digitableLine;
      // Payable through the end of the due date in Brasília (UTC−3).
      row.expires_at = new Date(`${dueDate}T23:59:59.999-03:00`).toISOString();
    } else {
      const card = this.checkCard(scope, data);
      row.card_brand = cardBrand(card);
      row.card_last4 = card.slice(-4);
      outcome = sandboxOutcome(card);
    }

    const stored = await this.database.transaction(async (trx) => {
      await this.charges.insert(row, trx);
      await this.transitions.recordEvent(scope, row, 'created', trx);
      if (outcome === null) return row;
      if (outcome.approved) {
        const paid = await this.payments.pay(scope, id, 'CARD', trx, installments);
        if (!outcome.openDispute) return paid;
        // The dispute test card (API.md §10.3): approved, then disputed at once.
        await this.disputes.open(scope, id, 'FRAUD', trx);
        return (await this.charges.findById(scope, id, trx)) ?? paid;
      }
      return this.transitions.apply(scope, id, 'fail', trx, { failure_reason: outcome.reason });
    });
    if (outcome !== null && !outcome.approved) throw cardDeclined(outcome.reason, id);
    return this.view(stored);
  }

  async list(scope: Scope, query: ListTransparentsQueryDto): Promise<Page<TransparentView>> {
    await this.expiry.sweep(scope);
    const page = toPageRequest(query);
    const prefixes = query.method === undefined ? Object.values(ID_PREFIX) : [ID_PREFIX[query.method]];
    const rows = await this.charges.listPageAcrossPrefixes(scope, 'transparent', prefixes, page, {
      status: query.status,
      method: query.method,
    });
    return toPage(rows, page, (row) => this.view(row));
  }

  async get(scope: Scope, id: string): Promise<TransparentView> {
    return this.view(await this.operations.find(scope, id, 'transparent'));
  }

  async check(scope: Scope, id: string): Promise<TransparentCheckView> {
    const row = await this.operations.find(scope, id, 'transparent');
    return { id: row.id, status: row.status, expiresAt: row.expires_at };
  }

  async cancel(scope: Scope, id: string): Promise<TransparentView> {
    return this.view(await this.operations.cancel(scope, id, 'transparent'));
  }

  async refund(scope: Scope, id: string, reason: string | null): Promise<TransparentView> {
    return this.view(await this.operations.refund(scope, id, 'transparent', reason));
  }

  async simulatePayment(scope: Scope, id: string): Promise<TransparentView> {
    assertSandbox(scope);
    const current = await this.operations.find(scope, id, 'transparent');
    const method = current.method ?? 'PIX';
    return this.view(await this.operations.simulatePayment(scope, id, 'transparent', method));
  }

  async simulateDispute(scope: Scope, id: string, reason?: DisputeReason): Promise<TransparentView> {
    return this.view(await this.disputes.simulateOnCharge(scope, id, 'transparent', reason));
  }

  async simulateExpiration(scope: Scope, id: string): Promise<TransparentView> {
    return this.view(await this.operations.simulateExpiration(scope, id, 'transparent'));
  }

  private view(row: ChargesTable): TransparentView {
    return this.presenter.transparent(row) as TransparentView;
  }

  private checkCard(scope: Scope, data: TransparentDataDto): string {
    if (!data.card) throw cardRequired();
    if (scope.mode === 'live') throw liveCardUnavailable();
    const number = data.card.number.replace(/\s/g, '');
    if (!passesLuhn(number)) throw cardNumberInvalid();
    const now = this.clock.now();
    const expiry = data.card.expYear * 12 + data.card.expMonth;
    if (expiry < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1) throw cardExpired();
    return number;
  }

  private dueDateOf(requested: string | undefined): string {
    const today = this.clock.now().toISOString().slice(0, 10);
    if (requested === undefined) return new Date(Date.parse(today) + DEFAULT_BOLETO_DAYS * DAY_MS).toISOString().slice(0, 10);
    const parsed = new Date(`${requested}T00:00:00.000Z`);
    if (Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== requested || requested < today) {
      throw dueDateInvalid();
    }
    return requested;
  }

  private baseRow(
    scope: Scope,
    id: string,
    method: ChargeMethod,
    data: TransparentDataDto,
    customer: ChargeCustomer | null,
    installments: number,
    now: string,
  ): ChargesTable {
    return newChargeRow(
      scope,
      { id, kind: 'transparent', amount: data.amount, methods: [method], metadata: data.metadata, now },
      {
        method,
        installments,
        customer: customer === null ? null : JSON.stringify(customer),
        external_id: data.externalId ?? null,
        description: data.description ?? null,
      },
    );
  }
}

function customerSnapshot(data: TransparentDataDto): ChargeCustomer | null {
  if (!data.customer) return null;
  let taxId: string | null = null;
  if (data.customer.taxId !== undefined) {
    const normalized = normalizeTaxId(data.customer.taxId);
    if (!normalized) throw invalidCustomerTaxId();
    taxId = normalized.value;
  }
  return {
    name: data.customer.name ?? null,
    email: data.customer.email ?? null,
    taxId,
    cellphone: data.customer.cellphone ?? null,
  };
}

