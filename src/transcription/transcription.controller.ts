import { Controller, HttpCode, Post, Query, Req, UseGuards, UseInterceptors } from '@nestjs/common';
import {
  ApiBadGatewayResponse,
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiBody,
  ApiConsumes,
  ApiOkResponse,
  ApiPayloadTooLargeResponse,
  ApiServiceUnavailableResponse,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { Request } from 'express';
import { ApiErrorDto } from '../common/errors/api-error';
import { MultipartUpload, uploadedFile } from '../common/uploads/multipart-upload.interceptor';
import { AuthGuard } from '../records/auth/auth.guards';
import { TranscribeFormDto, TranscribeQueryDto, TranscriptionDto } from './dto/transcription.dto';
import { TranscriptionService } from './transcription.service';

export const TRANSCRIBE_MAX_BYTES = 25 * 1024 * 1024;

@ApiTags('transcription')
@ApiBearerAuth()
@Controller('transcribe')
@UseGuards(AuthGuard)
export class TranscriptionController {
  constructor(private readonly transcription: TranscriptionService) {}

  /** Transcribes an uploaded recording with an installed transcription model on an online worker. */
  @Post()
  @HttpCode(200)
  @UseInterceptors(MultipartUpload({ name: 'file', maxBytes: TRANSCRIBE_MAX_BYTES }))
  @ApiConsumes('multipart/form-data')
  @ApiBody({ type: TranscribeFormDto })
  @ApiOkResponse({ type: TranscriptionDto })
  @ApiBadRequestResponse({
    type: ApiErrorDto,
    description: 'No file, not audio, or an unknown model/server.',
  })
  @ApiUnauthorizedResponse({ type: ApiErrorDto, description: 'Not signed in.' })
  @ApiPayloadTooLargeResponse({ type: ApiErrorDto, description: 'The file is larger than 25 MB.' })
  @ApiBadGatewayResponse({ type: ApiErrorDto, description: 'The worker failed.' })
  @ApiServiceUnavailableResponse({
    type: ApiErrorDto,
    description: 'No online worker has a (matching) transcription model installed.',
  })
  transcribeAudio(@Query() query: TranscribeQueryDto, @Req() request: Request): Promise<TranscriptionDto> {
    return this.transcription.transcribe(uploadedFile(request, 'file'), query);
  }
}
