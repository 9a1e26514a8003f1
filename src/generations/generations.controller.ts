import { Body, Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { SAMPLE_RATE_HEADER } from '../../worker/contract/worker-api';
import { ApiErrorDto } from '../common/errors/api-error';
import { GenerateSpeechDto } from './dto/generate-speech.dto';
import { GenerationsService } from './generations.service';

@ApiTags('generations')
@Controller()
export class GenerationsController {
  constructor(private readonly service: GenerationsService) {}

  /** Speaks `input` with a model: a WAV file, or with `stream: true` raw PCM chunks as they are made. */
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
  async generateSpeech(
    @Body() dto: GenerateSpeechDto,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const abort = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) {
        abort.abort();
      }
    });
    const audio = await this.service.generate(dto, abort.signal);
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
    try {
      for await (const chunk of audio.body) {
        if (!res.write(chunk)) {
          await new Promise<void>((resolve) => res.once('drain', resolve));
        }
      }
      res.end();
    } catch {
      // Headers are gone: cutting the connection is the only way to tell the client the audio is incomplete.
      req.socket.destroy();
    }
  }
}
