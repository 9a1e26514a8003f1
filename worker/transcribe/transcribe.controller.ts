import { Body, Controller, HttpCode, Post, Req, Res, UseInterceptors } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiBody,
  ApiConsumes,
  ApiOkResponse,
  ApiOperation,
  ApiPayloadTooLargeResponse,
  ApiServiceUnavailableResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';

import { WorkerErrorDto } from '../common/dto/worker-error.dto';
import { responseAbortSignal } from '../common/request-signal';
import type { TranscribeResult } from '../contract/worker-api';
import { AudioUploadInterceptor, uploadedAudio } from './audio-upload.interceptor';
import { TranscribeRequestDto } from './dto/transcribe-request.dto';
import { TranscribeResponseDto } from './dto/transcribe-response.dto';
import { TranscribeService } from './transcribe.service';

@ApiTags('transcribe')
@ApiBearerAuth()
@Controller('transcribe')
export class TranscribeController {
  constructor(private readonly transcription: TranscribeService) {}

  @Post()
  @HttpCode(200)
  @UseInterceptors(AudioUploadInterceptor)
  @ApiOperation({
    summary: 'Transcribe speech',
    description:
      'Audio in any of WAV (PCM/float, any rate and channels), MP3, FLAC, OGG (Vorbis or Opus) or WebM/Matroska ' +
      "(Opus, e.g. a browser's MediaRecorder); the format is detected from the bytes. It is decoded to 16 kHz " +
      'mono and recognised by the chosen backend. Limits: INFERENCE_MAX_UPLOAD_MB (413) and ' +
      'INFERENCE_MAX_AUDIO_SECONDS (400 audio_too_long).',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({
    schema: {
      type: 'object',
      required: ['file'],
      properties: {
        file: {
          type: 'string',
          format: 'binary',
          description: 'The audio (the field may also be named audio)',
        },
        backend: { type: 'string', nullable: true, example: 'pocketsphinx' },
        model_path: { type: 'string', nullable: true, example: 'whisper/base' },
        language: { type: 'string', nullable: true, example: 'en' },
      },
    },
  })
  @ApiOkResponse({ type: TranscribeResponseDto })
  @ApiBadRequestResponse({
    type: WorkerErrorDto,
    description:
      'Missing, undecodable (invalid_audio), unsupported (unsupported_audio) or too long (audio_too_long) audio; ' +
      'unknown backend, model or language',
  })
  @ApiPayloadTooLargeResponse({
    type: WorkerErrorDto,
    description: 'The upload exceeds INFERENCE_MAX_UPLOAD_MB',
  })
  @ApiServiceUnavailableResponse({ type: WorkerErrorDto, description: 'Queue full; retry later' })
  transcribe(
    @Req() request: Request,
    @Body() body: TranscribeRequestDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<TranscribeResult> {
    return this.transcription.transcribe(uploadedAudio(request), body, responseAbortSignal(response));
  }
}
