import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Logger,
  Param,
  Post,
  Query,
  Req,
  Res,
  UseGuards,
} from '@nestjs/common';
import {
  ApiBadGatewayResponse,
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiProduces,
  ApiServiceUnavailableResponse,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { SAMPLE_RATE_HEADER } from '../../worker/contract/worker-api';
import { ApiErrorDto } from '../common/errors/api-error';
import { ownerId } from '../common/records/owner';
import type { AuthContext } from '../records/auth/auth-context';
import { AuthGuard, CurrentAuth } from '../records/auth/auth.guards';
import { deliverAudio, responseSink } from './audio-delivery';
import { GenerateSpeechDto } from './dto/generate-speech.dto';
import { GenerationDto, GenerationListDto, ListGenerationsQueryDto } from './dto/generation.dto';
import { GenerationsService } from './generations.service';
import { HistoryService } from './history.service';

/** Speech generation and its history. Every route needs a signed-in user; the history is private. */
@ApiTags('generations')
@ApiBearerAuth()
@ApiUnauthorizedResponse({ type: ApiErrorDto, description: 'Not signed in.' })
@Controller()
@UseGuards(AuthGuard)
export class GenerationsController {
  private readonly logger = new Logger(GenerationsController.name);

  constructor(
    private readonly service: GenerationsService,
    private readonly history: HistoryService,
  ) {}

  /**
   * Speaks `input` with a model: a WAV file, or with `stream: true` raw PCM chunks as they are made. Each
   * complete generation is recorded in the caller's history.
   */
  @Post('generate')
  @HttpCode(200)
  @ApiProduces('audio/wav', 'audio/pcm')
  @ApiOkResponse({
    description: 'audio/wav, or audio/pcm (s16le mono, sample rate in X-Sample-Rate) when stream is true.',
    content: {
      'audio/wav': { schema: { type: 'string', format: 'binary' } },
      'audio/pcm': { schema: { type: 'string', format: 'binary' } },
    },
    headers: {
      [SAMPLE_RATE_HEADER]: { description: 'Sample rate of the audio in Hz.', schema: { type: 'integer' } },
    },
  })
  @ApiBadRequestResponse({ type: ApiErrorDto })
  @ApiBadGatewayResponse({ type: ApiErrorDto, description: 'The workers failed to generate.' })
  @ApiServiceUnavailableResponse({ type: ApiErrorDto, description: 'No worker is online.' })
  async generateSpeech(
    @CurrentAuth() auth: AuthContext,
    @Body() dto: GenerateSpeechDto,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const user = ownerId(auth);
    const abort = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) {
        abort.abort();
      }
    });
    const audio = await this.service.generate(dto, user, abort.signal);
    res.status(200).setHeader('Content-Type', audio.contentType);
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('X-Inference-Server', encodeURIComponent(audio.workerName));
    if (audio.sampleRate) {
      res.setHeader(SAMPLE_RATE_HEADER, String(audio.sampleRate));
    }
    if (audio.contentLength) {
      res.setHeader('Content-Length', String(audio.contentLength));
    }
    res.flushHeaders();
    await deliverAudio(
      audio.body,
      responseSink(req, res),
      { commit: (chunks) => this.history.commit(audio.draft, chunks, performance.now() - audio.startedAt) },
      { holdLastChunk: audio.contentLength !== undefined, logger: this.logger },
    );
  }

  /** The caller's history, newest first, filtered and paginated. */
  @Get('generations')
  @ApiOkResponse({ type: GenerationListDto })
  @ApiBadRequestResponse({ type: ApiErrorDto })
  listGenerations(
    @CurrentAuth() auth: AuthContext,
    @Query() query: ListGenerationsQueryDto,
  ): Promise<GenerationListDto> {
    return this.history.list(ownerId(auth), query);
  }

  @Get('generations/:id')
  @ApiOkResponse({ type: GenerationDto })
  @ApiNotFoundResponse({ type: ApiErrorDto })
  getGeneration(@CurrentAuth() auth: AuthContext, @Param('id') id: string): Promise<GenerationDto> {
    return this.history.get(ownerId(auth), id);
  }

  /** The generated audio as a WAV download. */
  @Get('generations/:id/audio')
  @ApiProduces('audio/wav')
  @ApiOkResponse({
    description: 'The WAV file (Content-Disposition: attachment).',
    content: { 'audio/wav': { schema: { type: 'string', format: 'binary' } } },
  })
  @ApiNotFoundResponse({ type: ApiErrorDto })
  async getGenerationAudio(
    @CurrentAuth() auth: AuthContext,
    @Param('id') id: string,
    @Res() res: Response,
  ): Promise<void> {
    const file = await this.history.audioFile(ownerId(auth), id);
    await new Promise<void>((resolve, reject) => {
      res.sendFile(
        file.path,
        {
          headers: {
            'Content-Type': 'audio/wav',
            'Content-Disposition': `attachment; filename="${file.downloadName}"`,
            'Cache-Control': 'private, no-store',
          },
          dotfiles: 'deny',
        },
        (error) => (error && !res.headersSent ? reject(error) : resolve()),
      );
    });
  }

  /** Deletes a history entry and its audio file. */
  @Delete('generations/:id')
  @HttpCode(204)
  @ApiNoContentResponse()
  @ApiNotFoundResponse({ type: ApiErrorDto })
  deleteGeneration(@CurrentAuth() auth: AuthContext, @Param('id') id: string): Promise<void> {
    return this.history.delete(ownerId(auth), id);
  }
}
