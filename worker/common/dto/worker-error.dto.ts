import { ApiProperty } from '@nestjs/swagger';

import type { WorkerError } from '../../contract/worker-api';

/** The one error shape of the worker (PocketBase's). */
export class WorkerErrorDto implements WorkerError {
  @ApiProperty({ example: 400 })
  status!: number;

  @ApiProperty({ example: 'The request is invalid.' })
  message!: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: {
      type: 'object',
      properties: {
        code: { type: 'string', example: 'validation_required' },
        message: { type: 'string', example: 'text should not be empty' },
      },
      required: ['code', 'message'],
    },
    description: 'Field name → problem with that field; empty when the error concerns no field',
    example: { text: { code: 'validation_required', message: 'text should not be empty' } },
  })
  data!: Record<string, { code: string; message: string }>;
}
