import { Body, Controller, HttpCode, Post, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiServiceUnavailableResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';

import { WorkerErrorDto } from '../common/dto/worker-error.dto';
import { responseAbortSignal } from '../common/request-signal';
import { SAMPLE_RATE_HEADER } from '../contract/worker-api';
import { sendWav, streamPcm } from './audio-response';
import { GenerateRequestDto } from './dto/generate-request.dto';
import { GenerateService } from './generate.service';

@ApiTags('generate')
@ApiBearerAuth()
@ApiBadRequestResponse({
  type: WorkerErrorDto,
  description: 'Invalid request, unknown backend, voice or language',
})
@ApiServiceUnavailableResponse({
  type: WorkerErrorDto,
  description: "The model's queue is full; retry later",
})
@Controller('generate')
export class GenerateController {
  constructor(private readonly generation: GenerateService) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Synthesise text to a WAV file (16-bit PCM, mono)' })
  @ApiProduces('audio/wav')
  @ApiOkResponse({ description: 'The whole audio', schema: { type: 'string', format: 'binary' } })
  async generate(@Body() request: GenerateRequestDto, @Res() response: Response): Promise<void> {
    const signal = responseAbortSignal(response);
    await sendWav(response, await this.generation.generateAll(request, signal), signal);
  }

  @Post('stream')
  @HttpCode(200)
  @ApiOperation({ summary: 'Synthesise text as raw PCM (s16le, mono), streamed sentence by sentence' })
  @ApiProduces('audio/pcm')
  @ApiOkResponse({
    description: `Chunked raw PCM; the sample rate is in the ${SAMPLE_RATE_HEADER} header`,
    schema: { type: 'string', format: 'binary' },
    headers: { [SAMPLE_RATE_HEADER]: { description: 'Sample rate in Hz', schema: { type: 'integer' } } },
  })
  async generateStream(@Body() request: GenerateRequestDto, @Res() response: Response): Promise<void> {
    const signal = responseAbortSignal(response);
    await streamPcm(response, await this.generation.open(request, signal), signal);
  }
}
