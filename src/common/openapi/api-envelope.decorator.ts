import { applyDecorators, Type } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';

/** Documents a route's success response as the envelope around `model` (API.md §1.1), plus the error envelope. */
export function ApiEnvelope(model: Type<unknown>, status = 200) {
  return applyDecorators(
    ApiExtraModels(model),
    ApiResponse({
      status,
      description: 'Success',
      schema: {
        type: 'object',
        required: ['data', 'success', 'error'],
        properties: {
          data: { $ref: getSchemaPath(model) },
          success: { type: 'boolean', enum: [true] },
          error: { type: 'null' as 'string', nullable: true },
        },
      },
    }),
    ApiResponse({ status: 'default', description: 'Error envelope', schema: { $ref: '#/components/schemas/ErrorEnvelope' } }),
  );
}

export const ERROR_ENVELOPE_SCHEMA = {
  type: 'object',
  required: ['data', 'success', 'error'],
  properties: {
    data: { nullable: true, enum: [null] },
    success: { type: 'boolean', enum: [false] },
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string', example: 'VALIDATION_ERROR' },
        message: { type: 'string' },
        details: {
          type: 'array',
          items: { type: 'object', properties: { field: { type: 'string' }, message: { type: 'string' } } },
        },
      },
    },
  },
};
