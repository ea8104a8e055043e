import { Injectable } from '@nestjs/common';
import type { Scope } from '../../common/auth/auth-context';
import { Clock } from '../../common/clock';
import { newId } from '../../common/ids';
import { Page, toPage, toPageRequest } from '../../common/pagination/pagination';
import { Executor, isUniqueViolation } from '../../database/database.service';
import type { CouponsTable } from '../../database/database.types';
import { EventsService } from '../events/events.service';
import { couponStatus } from './coupon-rules';
import { presentCoupon } from './coupon.presenter';
import {
  couponCodeTaken,
  couponNotFound,
  couponUnavailable,
  expiredCouponToggle,
  expiresAtNotFuture,
  maxRedeemsBelowCount,
  percentageOutOfRange,
} from './coupons.errors';
import { CouponPatch, CouponsRepository } from './coupons.repository';
import type { CouponView, CreateCouponDto, GetCouponQueryDto, ListCouponsQueryDto, UpdateCouponDto } from './dto/coupon.dto';

@Injectable()
export class CouponsService {
  constructor(
    private readonly coupons: CouponsRepository,
    private readonly events: EventsService,
    private readonly clock: Clock,
  ) {}

  async create(scope: Scope, input: CreateCouponDto): Promise<CouponView> {
    if (input.discountKind === 'PERCENTAGE' && input.discount > 100) throw percentageOutOfRange();
    const now = this.clock.nowIso();
    const row: CouponsTable = {
      id: newId('coup'),
      store_id: scope.storeId,
      mode: scope.mode,
      code: input.code,
      discount_kind: input.discountKind,
      discount: input.discount,
      max_redeems: input.maxRedeems ?? -1,
      redeems_count: 0,
      status: 'ACTIVE',
      expires_at: this.futureOrNull(input.expiresAt),
      notes: input.notes ?? null,
      metadata: JSON.stringify(input.metadata ?? {}),
      created_at: now,
      updated_at: now,
      deleted_at: null,
    };
    try {
      await this.coupons.insert(row);
    } catch (error) {
      if (isUniqueViolation(error)) throw couponCodeTaken();
      throw error;
    }
    return presentCoupon(row, now);
  }

  async list(scope: Scope, query: ListCouponsQueryDto): Promise<Page<CouponView>> {
    const page = toPageRequest(query);
    const now = this.clock.nowIso();
    const rows = await this.coupons.listPage(scope, page, { status: query.status, code: query.code }, now);
    return toPage(rows, page, (row) => presentCoupon(row, now));
  }

  async get(scope: Scope, query: GetCouponQueryDto): Promise<CouponView> {
    return presentCoupon(await this.find(scope, query), this.clock.nowIso());
  }

  async update(scope: Scope, input: UpdateCouponDto): Promise<CouponView> {
    const current = await this.find(scope, { id: input.id });
    const patch: CouponPatch = { updated_at: this.clock.nowIso() };
    if (input.maxRedeems !== undefined) {
      if (input.maxRedeems !== -1 && input.maxRedeems < current.redeems_count) {
        throw maxRedeemsBelowCount(current.redeems_count);
      }
      patch.max_redeems = input.maxRedeems;
    }
    if (input.expiresAt !== undefined) patch.expires_at = input.expiresAt === null ? null : this.futureOrNull(input.expiresAt);
    if (input.notes !== undefined) patch.notes = input.notes;
    if (input.metadata !== undefined) patch.metadata = JSON.stringify(input.metadata);
    if (!(await this.coupons.update(scope, input.id, patch))) {
      // A reservation committed after the check above (or the coupon was deleted meanwhile: find answers 404).
      throw maxRedeemsBelowCount((await this.find(scope, { id: input.id })).redeems_count);
    }
    return this.get(scope, { id: input.id });
  }

  async toggle(scope: Scope, id: string): Promise<CouponView> {
    const current = await this.find(scope, { id });
    const now = this.clock.nowIso();
    if (couponStatus(current, now) === 'EXPIRED') throw expiredCouponToggle();
    await this.coupons.update(scope, id, { status: current.status === 'ACTIVE' ? 'INACTIVE' : 'ACTIVE', updated_at: now });
    return this.get(scope, { id });
  }

  async delete(scope: Scope, id: string): Promise<{ id: string; deleted: true }> {
    if (!(await this.coupons.softDelete(scope, id, this.clock.nowIso()))) throw couponNotFound();
    return { id, deleted: true };
  }

  /**
   * Reserves one redemption of `code` on the caller's transaction (checkouts, subscriptions). Throws
   * NOT_FOUND for an unknown code and COUPON_UNAVAILABLE when it is inactive, expired or used up. The
   * redemption that uses the last one records `coupon.exhausted`.
   */
  async reserve(scope: Scope, code: string, trx: Executor): Promise<CouponsTable> {
    const normalizedCode = code.trim().toUpperCase();
    const now = this.clock.nowIso();
    const reserved = await this.coupons.reserveRedemption(scope, normalizedCode, now, trx);
    const coupon = await this.coupons.findByCode(scope, normalizedCode, trx);
    if (!coupon) throw couponNotFound();
    if (!reserved) {
      if (couponStatus(coupon, now) === 'EXPIRED') throw couponUnavailable('expired');
      throw couponUnavailable(coupon.status === 'INACTIVE' ? 'inactive' : 'used up');
    }
    if (coupon.max_redeems !== -1 && coupon.redeems_count >= coupon.max_redeems) {
      await this.events.record(scope, 'coupon.exhausted', presentCoupon(coupon, now), trx);
    }
    return coupon;
  }

  /**
   * The coupon of `code` if a redemption could be reserved right now, without reserving it (a payment
   * link's checkout takes its redemption only when it is paid). Same errors as `reserve`.
   */
  async findUsable(scope: Scope, code: string, executor?: Executor): Promise<CouponsTable> {
    const coupon = await this.coupons.findByCode(scope, code.trim().toUpperCase(), executor);
    if (!coupon) throw couponNotFound();
    const now = this.clock.nowIso();
    if (couponStatus(coupon, now) === 'EXPIRED') throw couponUnavailable('expired');
    if (coupon.status === 'INACTIVE') throw couponUnavailable('inactive');
    if (coupon.max_redeems !== -1 && coupon.redeems_count >= coupon.max_redeems) throw couponUnavailable('used up');
    return coupon;
  }

  /** Gives back a redemption reserved by a checkout that expired or was cancelled. */
  async release(scope: Scope, couponId: string, trx: Executor): Promise<void> {
    await this.coupons.releaseRedemption(scope, couponId, this.clock.nowIso(), trx);
  }

  private async find(scope: Scope, query: GetCouponQueryDto): Promise<CouponsTable> {
    const row =
      query.id !== undefined ? await this.coupons.findById(scope, query.id) : await this.coupons.findByCode(scope, query.code ?? '');
    if (!row || (query.id !== undefined && query.code !== undefined && row.code !== query.code)) throw couponNotFound();
    return row;
  }

  private futureOrNull(expiresAt: string | undefined): string | null {
    if (expiresAt === undefined) return null;
    const at = new Date(expiresAt);
    if (at.getTime() <= this.clock.now().getTime()) throw expiresAtNotFuture();
    return at.toISOString();
  }
}
