import type { DisputeStatus } from '../../database/database.types';
import { canApply, CHARGE_TRANSITIONS } from '../charges/charge-lifecycle';
import { DisputeAction, DISPUTE_TRANSITIONS } from './dispute-lifecycle';
import { DISPUTE_STATUSES, evidenceProblem } from './dto/dispute.dto';

/**
 * The dispute lifecycle (API.md §11, docs/DECISIONS.md "Disputes") as data, and the evidence rule of
 * submit-evidence: `{text, …}`, text 1–20000 chars, at most 20 string fields, keys ≤ 40 chars, values ≤ 5000.
 */
describe('DISPUTE_TRANSITIONS (API.md §11)', () => {
  const ALL: DisputeStatus[] = ['OPEN', 'UNDER_REVIEW', 'WON', 'LOST'];

  it('knows exactly the four dispute statuses of the contract', () => {
    expect([...DISPUTE_STATUSES].sort()).toEqual([...ALL].sort());
  });

  it('has exactly the actions submitEvidence, accept, win and lose', () => {
    expect(Object.keys(DISPUTE_TRANSITIONS).sort()).toEqual(['accept', 'lose', 'submitEvidence', 'win']);
  });

  it.each<[DisputeAction, DisputeStatus[], DisputeStatus, string, string | null]>([
    ['submitEvidence', ['OPEN'], 'UNDER_REVIEW', 'dispute.updated', null],
    ['accept', ['OPEN', 'UNDER_REVIEW'], 'LOST', 'dispute.lost', 'lose'],
    ['win', ['OPEN', 'UNDER_REVIEW'], 'WON', 'dispute.won', 'win'],
    ['lose', ['OPEN', 'UNDER_REVIEW'], 'LOST', 'dispute.lost', 'lose'],
  ])('%s: from %j to %s, records %s, charge action %s', (action, from, to, event, charge) => {
    const transition = DISPUTE_TRANSITIONS[action];
    expect([...transition.from].sort()).toEqual([...from].sort());
    expect(transition.to).toBe(to);
    expect(transition.event).toBe(event);
    expect(transition.charge).toBe(charge);
  });

  it('allows each action from exactly its from-states (the full action × status matrix)', () => {
    const allowed: Record<DisputeAction, DisputeStatus[]> = {
      submitEvidence: ['OPEN'],
      accept: ['OPEN', 'UNDER_REVIEW'],
      win: ['OPEN', 'UNDER_REVIEW'],
      lose: ['OPEN', 'UNDER_REVIEW'],
    };
    for (const action of Object.keys(allowed) as DisputeAction[]) {
      for (const status of ALL) {
        expect([action, status, DISPUTE_TRANSITIONS[action].from.includes(status)]).toEqual([
          action,
          status,
          allowed[action].includes(status),
        ]);
      }
    }
  });

  it('treats WON and LOST as final: no action leaves them', () => {
    for (const transition of Object.values(DISPUTE_TRANSITIONS)) {
      expect(transition.from).not.toContain('WON');
      expect(transition.from).not.toContain('LOST');
    }
  });

  it('only evidence keeps the dispute unresolved; every other action ends it as WON or LOST', () => {
    const unresolved = Object.entries(DISPUTE_TRANSITIONS)
      .filter(([, transition]) => transition.to !== 'WON' && transition.to !== 'LOST')
      .map(([action]) => action);
    expect(unresolved).toEqual(['submitEvidence']);
  });

  it('only actions that resolve the dispute move the charge, and the charge can take them from UNDER_DISPUTE', () => {
    for (const [action, transition] of Object.entries(DISPUTE_TRANSITIONS)) {
      if (transition.charge === null) {
        expect([action, transition.to]).toEqual([action, 'UNDER_REVIEW']);
        continue;
      }
      expect([action, canApply(transition.charge, 'UNDER_DISPUTE')]).toEqual([action, true]);
    }
  });

  describe('the charge side of a dispute (API.md §9: PAID → UNDER_DISPUTE → PAID | CHARGED_BACK)', () => {
    const charge = { id: 'bill_X', amount: 10_000, net_amount: 9_920 } as Parameters<(typeof CHARGE_TRANSITIONS)['dispute']['ledger']>[0];

    it('opening (charge dispute) leaves PAID only and holds the whole amount: available −amount, blocked +amount', () => {
      expect(CHARGE_TRANSITIONS.dispute.from).toEqual(['PAID']);
      expect(CHARGE_TRANSITIONS.dispute.to).toBe('UNDER_DISPUTE');
      expect(CHARGE_TRANSITIONS.dispute.event).toBeNull();
      expect(CHARGE_TRANSITIONS.dispute.ledger(charge)).toEqual([
        { type: 'dispute_hold', bucket: 'available', amount: -10_000, sourceId: 'bill_X' },
        { type: 'dispute_hold', bucket: 'blocked', amount: 10_000, sourceId: 'bill_X' },
      ]);
      // The hold may take available below zero: no requireFunds.
      expect(CHARGE_TRANSITIONS.dispute.ledger(charge).some((posting) => posting.requireFunds)).toBe(false);
    });

    it('won returns the charge to PAID and the blocked amount to available', () => {
      expect(CHARGE_TRANSITIONS.win.from).toEqual(['UNDER_DISPUTE']);
      expect(CHARGE_TRANSITIONS.win.to).toBe('PAID');
      expect(CHARGE_TRANSITIONS.win.ledger(charge)).toEqual([
        { type: 'dispute_release', bucket: 'blocked', amount: -10_000, sourceId: 'bill_X' },
        { type: 'dispute_release', bucket: 'available', amount: 10_000, sourceId: 'bill_X' },
      ]);
    });

    it('lost charges the charge back and removes the blocked amount (available stays reduced)', () => {
      expect(CHARGE_TRANSITIONS.lose.from).toEqual(['UNDER_DISPUTE']);
      expect(CHARGE_TRANSITIONS.lose.to).toBe('CHARGED_BACK');
      expect(CHARGE_TRANSITIONS.lose.ledger(charge)).toEqual([
        { type: 'chargeback', bucket: 'blocked', amount: -10_000, sourceId: 'bill_X' },
      ]);
    });

    it('a disputed charge cannot be refunded, and only a PAID one can be disputed', () => {
      expect(canApply('refund', 'UNDER_DISPUTE')).toBe(false);
      expect(canApply('refund', 'CHARGED_BACK')).toBe(false);
      for (const status of ['PENDING', 'REFUNDED', 'UNDER_DISPUTE', 'CHARGED_BACK', 'EXPIRED', 'CANCELLED', 'FAILED'] as const) {
        expect([status, canApply('dispute', status)]).toEqual([status, false]);
      }
      expect(canApply('dispute', 'PAID')).toBe(true);
    });
  });
});

describe('evidenceProblem (submit-evidence body)', () => {
  const fields = (count: number): Record<string, string> => {
    const evidence: Record<string, string> = { text: 'Delivered and signed for.' };
    for (let i = 1; i < count; i += 1) evidence[`field${i}`] = `value ${i}`;
    return evidence;
  };

  it.each<[string, unknown]>([
    ['text only', { text: 'Delivered on 2026-11-02, signed by the buyer.' }],
    ['text and a tracking code', { text: 'Shipped by Correios.', trackingCode: 'BR123456789BR' }],
    ['text of exactly 20000 characters', { text: 'a'.repeat(20_000) }],
    ['a single-character text', { text: 'x' }],
    ['20 fields (text + 19)', fields(20)],
    ['a key of exactly 40 characters', { text: 'ok', ['k'.repeat(40)]: 'v' }],
    ['an extra value of exactly 5000 characters', { text: 'ok', receipt: 'r'.repeat(5000) }],
    ['an empty extra value', { text: 'ok', note: '' }],
  ])('accepts %s', (_label, evidence) => {
    expect(evidenceProblem(evidence)).toBeNull();
  });

  it.each<[string, unknown, string]>([
    ['null', null, 'evidence must be an object'],
    ['a string', 'Delivered', 'evidence must be an object'],
    ['a number', 42, 'evidence must be an object'],
    ['an array', [{ text: 'x' }], 'evidence must be an object'],
    ['missing text', { trackingCode: 'BR1' }, 'evidence.text must be 1–20000 characters'],
    ['an empty object', {}, 'evidence.text must be 1–20000 characters'],
    ['empty text', { text: '' }, 'evidence.text must be 1–20000 characters'],
    ['blank text', { text: '   \n\t ' }, 'evidence.text must be 1–20000 characters'],
    ['text of 20001 characters', { text: 'a'.repeat(20_001) }, 'evidence.text must be 1–20000 characters'],
    ['a numeric text', { text: 123 }, 'evidence.text must be 1–20000 characters'],
    ['a null text', { text: null }, 'evidence.text must be 1–20000 characters'],
    ['21 fields', fields(21), 'evidence can hold at most 20 fields'],
    ['a key of 41 characters', { text: 'ok', ['k'.repeat(41)]: 'v' }, 'evidence field names can be at most 40 characters'],
    ['a numeric extra field', { text: 'ok', trackingCode: 123 }, 'evidence.trackingCode must be a string of at most 5000 characters'],
    ['an object extra field', { text: 'ok', meta: { a: 'b' } }, 'evidence.meta must be a string of at most 5000 characters'],
    ['a null extra field', { text: 'ok', receipt: null }, 'evidence.receipt must be a string of at most 5000 characters'],
    ['a boolean extra field', { text: 'ok', signed: true }, 'evidence.signed must be a string of at most 5000 characters'],
    ['an extra value of 5001 characters', { text: 'ok', receipt: 'r'.repeat(5001) }, 'evidence.receipt must be a string of at most 5000 characters'],
  ])('rejects %s', (_label, evidence, message) => {
    expect(evidenceProblem(evidence)).toBe(message);
  });
});
