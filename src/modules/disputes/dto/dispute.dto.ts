import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsNotEmpty, IsString, MaxLength, ValidateBy } from 'class-validator';
import { ListQueryDto } from '../../../common/pagination/pagination';
import type { DisputeReason, DisputeStatus } from '../../../database/database.types';
import { OptionalField } from '../../../common/validation/optional-field';
import { PageOf } from '../../../common/openapi/page.view';

export const DISPUTE_REASONS: readonly DisputeReason[] = ['FRAUD', 'NOT_RECEIVED', 'DUPLICATE', 'OTHER'];
export const DISPUTE_STATUSES: readonly DisputeStatus[] = ['OPEN', 'UNDER_REVIEW', 'WON', 'LOST'];

export class DisputeIdDto {
  @ApiProperty({ example: 'disp_01JD2Z3M4N5P6Q7R8S9T0V1W2X' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(60)
  id: string;
}

/** Body of every charge's `simulate-dispute`. */
export class SimulateDisputeDto {
  @ApiProperty({ description: 'the PAID charge to dispute' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(60)
  id: string;

  @ApiPropertyOptional({ enum: DISPUTE_REASONS, default: 'FRAUD' })
  @OptionalField()
  @IsIn(DISPUTE_REASONS)
  reason?: DisputeReason;
}

/** `{text, …}`: `text` (1–20000 chars) plus up to 19 more string fields of ≤ 5000 chars (tracking code, receipt URL…). */
export function evidenceProblem(value: unknown): string | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'evidence must be an object';
  const entries = Object.entries(value as Record<string, unknown>);
  const text = (value as Record<string, unknown>).text;
  if (typeof text !== 'string' || text.trim() === '' || text.length > 20_000) return 'evidence.text must be 1–20000 characters';
  if (entries.length > 20) return 'evidence can hold at most 20 fields';
  for (const [key, entry] of entries) {
    if (key.length > 40) return 'evidence field names can be at most 40 characters';
    if (key !== 'text' && (typeof entry !== 'string' || entry.length > 5000)) return `evidence.${key} must be a string of at most 5000 characters`;
  }
  return null;
}

export class SubmitEvidenceDto extends DisputeIdDto {
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, example: { text: 'Delivered on 2026-11-02, signed by the buyer.', trackingCode: 'BR123' } })
  @ValidateBy({
    name: 'isEvidence',
    validator: { validate: (value: unknown) => evidenceProblem(value) === null, defaultMessage: (args) => evidenceProblem(args?.value) ?? 'invalid evidence' },
  })
  evidence: Record<string, string>;
}

export class SimulateResolutionDto extends DisputeIdDto {
  @ApiProperty({ enum: ['won', 'lost'] })
  @IsIn(['won', 'lost'])
  outcome: 'won' | 'lost';
}

export class ListDisputesQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: DISPUTE_STATUSES })
  @OptionalField()
  @IsIn(DISPUTE_STATUSES)
  status?: DisputeStatus;

  @ApiPropertyOptional()
  @OptionalField()
  @IsString()
  @MaxLength(60)
  chargeId?: string;
}

export class DisputeView {
  @ApiProperty({ example: 'disp_01JD2Z3M4N5P6Q7R8S9T0V1W2X' }) id: string;
  @ApiProperty() chargeId: string;
  @ApiProperty({ description: 'centavos held from the available balance' }) amount: number;
  @ApiProperty({ enum: DISPUTE_REASONS }) reason: DisputeReason;
  @ApiProperty({ enum: DISPUTE_STATUSES }) status: DisputeStatus;
  @ApiProperty({ type: 'object', nullable: true, additionalProperties: { type: 'string' } }) evidence: Record<string, string> | null;
  @ApiProperty({ format: 'date-time' }) respondBy: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) resolvedAt: string | null;
  @ApiProperty() devMode: boolean;
}

export class DisputePageView extends PageOf(DisputeView) {}
