import { Injectable } from '@nestjs/common';
import type { Scope } from '../../common/auth/auth-context';
import { Clock } from '../../common/clock';
import { invalidState } from '../../common/errors/domain-error';
import { newId } from '../../common/ids';
import { Page, toPage, toPageRequest } from '../../common/pagination/pagination';
import { assertSandbox } from '../../common/sandbox';
import { DatabaseService, Executor } from '../../database/database.service';
import type { ChargesTable, DisputeReason, DisputesTable } from '../../database/database.types';
import { ChargeOperationsService } from '../charges/charge-operations.service';
import { ChargeTransitionsService } from '../charges/charge-transitions.service';
import { EventsService } from '../events/events.service';
import { DisputeAction, DISPUTE_TRANSITIONS } from './dispute-lifecycle';
import { presentDispute } from './dispute.presenter';
import { disputeNotFound } from './disputes.errors';
import { DisputesRepository } from './disputes.repository';
import type { DisputeView, ListDisputesQueryDto } from './dto/dispute.dto';

const RESPONSE_WINDOW_MS = 7 * 24 * 3_600_000;

/** Disputes (API.md §11): opened on a PAID charge, holding its amount in `blocked` until resolved. */
@Injectable()
export class DisputesService {
  constructor(
    private readonly database: DatabaseService,
    private readonly disputes: DisputesRepository,
    private readonly transitions: ChargeTransitionsService,
    private readonly operations: ChargeOperationsService,
    private readonly events: EventsService,
    private readonly clock: Clock,
  ) {}

  /**
   * Opens a dispute on the caller's transaction: the charge goes UNDER_DISPUTE and its amount moves from
   * available to blocked (available may go negative), the dispute is stored and `dispute.created` recorded.
   */
  async open(scope: Scope, chargeId: string, reason: DisputeReason, trx: Executor): Promise<DisputesTable> {
    const charge = await this.transitions.apply(scope, chargeId, 'dispute', trx);
    const now = this.clock.nowIso();
    const dispute: DisputesTable = {
      id: newId('disp'),
      store_id: scope.storeId,
      mode: scope.mode,
      charge_id: charge.id,
      amount: charge.amount,
      reason,
      status: 'OPEN',
      evidence: null,
      respond_by: this.clock.isoIn(RESPONSE_WINDOW_MS),
      created_at: now,
      updated_at: now,
      resolved_at: null,
    };
    await this.disputes.insert(dispute, trx);
    await this.events.record(scope, 'dispute.created', presentDispute(dispute), trx);
    return dispute;
  }

  /**
   * `simulate-dispute` of any kind of charge: sandbox only, from PAID only; answers the charge. `reason`
   * absent or null (the DTO's @IsOptional lets null through) means the default, FRAUD.
   */
  async simulateOnCharge(scope: Scope, chargeId: string, kind: ChargesTable['kind'], reason?: DisputeReason | null): Promise<ChargesTable> {
    assertSandbox(scope);
    await this.operations.find(scope, chargeId, kind);
    await this.database.transaction((trx) => this.open(scope, chargeId, reason ?? 'FRAUD', trx));
    return this.operations.find(scope, chargeId, kind);
  }

  async list(scope: Scope, query: ListDisputesQueryDto): Promise<Page<DisputeView>> {
    const page = toPageRequest(query);
    return toPage(await this.disputes.listPage(scope, page, { status: query.status, chargeId: query.chargeId }), page, presentDispute);
  }

  async get(scope: Scope, id: string): Promise<DisputeView> {
    return presentDispute(await this.find(scope, id));
  }

  submitEvidence(scope: Scope, id: string, evidence: Record<string, string>): Promise<DisputeView> {
    return this.act(scope, id, 'submitEvidence', { evidence: JSON.stringify(evidence) });
  }

  accept(scope: Scope, id: string): Promise<DisputeView> {
    return this.act(scope, id, 'accept');
  }

  simulateResolution(scope: Scope, id: string, outcome: 'won' | 'lost'): Promise<DisputeView> {
    assertSandbox(scope);
    return this.act(scope, id, outcome === 'won' ? 'win' : 'lose');
  }

  /** Applies a dispute transition with its charge's transition and event, in one transaction. */
  private async act(scope: Scope, id: string, action: DisputeAction, changes: Partial<DisputesTable> = {}): Promise<DisputeView> {
    const transition = DISPUTE_TRANSITIONS[action];
    const updated = await this.database.transaction(async (trx) => {
      const current = await this.disputes.findById(scope, id, trx);
      if (!current) throw disputeNotFound();
      if (!transition.from.includes(current.status)) throw invalidState(`A ${current.status} dispute cannot do that`);
      const now = this.clock.nowIso();
      const patch: Partial<DisputesTable> = { ...changes, status: transition.to, updated_at: now };
      if (transition.to === 'WON' || transition.to === 'LOST') patch.resolved_at = now;
      if (!(await this.disputes.updateIfStatus(scope, id, transition.from, patch, trx))) {
        throw invalidState('The dispute changed state meanwhile');
      }
      if (transition.charge !== null) await this.transitions.apply(scope, current.charge_id, transition.charge, trx);
      const row = { ...current, ...patch };
      await this.events.record(scope, transition.event, presentDispute(row), trx);
      return row;
    });
    return presentDispute(updated);
  }

  private async find(scope: Scope, id: string): Promise<DisputesTable> {
    const row = await this.disputes.findById(scope, id);
    if (!row) throw disputeNotFound();
    return row;
  }
}
