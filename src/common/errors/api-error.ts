import { HttpException, HttpStatus } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';

/** Per-field error detail, PocketBase style. */
export interface FieldError {
  code: string;
  message: string;
}

/** The one error body of the API: `{status, message, data}` where data maps a field to `{code, message}`. */
export interface ApiErrorBody {
  status: number;
  message: string;
  data: Record<string, FieldError>;
}

export class FieldErrorDto implements FieldError {
  @ApiProperty({ example: 'validation_required' })
  code!: string;

  @ApiProperty({ example: 'Missing required value.' })
  message!: string;
}

export class ApiErrorDto implements ApiErrorBody {
  @ApiProperty({ example: 400 })
  status!: number;

  @ApiProperty({ example: 'Failed to process the request.' })
  message!: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: { $ref: '#/components/schemas/FieldErrorDto' },
    example: { input: { code: 'validation_max_length', message: 'Must be at most 5000 characters.' } },
  })
  data!: Record<string, FieldError>;
}

/** An HttpException whose response is already in the API error shape. */
export class ApiError extends HttpException {
  constructor(status: number, message: string, data: Record<string, FieldError> = {}) {
    super({ status, message, data } satisfies ApiErrorBody, status);
  }

  static badRequest(message: string, data: Record<string, FieldError> = {}): ApiError {
    return new ApiError(HttpStatus.BAD_REQUEST, message, data);
  }

  static field(field: string, code: string, message: string): ApiError {
    return new ApiError(HttpStatus.BAD_REQUEST, 'Failed to process the request.', {
      [field]: { code, message },
    });
  }

  static notFound(message = "The requested resource wasn't found."): ApiError {
    return new ApiError(HttpStatus.NOT_FOUND, message);
  }

  static unavailable(message: string): ApiError {
    return new ApiError(HttpStatus.SERVICE_UNAVAILABLE, message);
  }

  static badGateway(message: string): ApiError {
    return new ApiError(HttpStatus.BAD_GATEWAY, message);
  }
}
