import type { DisputesTable } from '../../database/database.types';
import type { DisputeView } from './dto/dispute.dto';

export function presentDispute(row: DisputesTable): DisputeView {
  return {
    id: row.id,
    chargeId: row.charge_id,
    amount: row.amount,
    reason: row.reason,
    status: row.status,
    evidence: row.evidence === null ? null : (JSON.parse(row.evidence) as Record<string, string>),
    respondBy: row.respond_by,
    createdAt: row.created_at,
    resolvedAt: row.resolved_at,
    devMode: row.mode === 'test',
  };
}
