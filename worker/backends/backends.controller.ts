import { Controller, Get, Param, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';

import { WorkerErrorDto } from '../common/dto/worker-error.dto';
import { responseAbortSignal } from '../common/request-signal';
import type { BackendInfo, BackendStatus, BackendVoice } from '../contract/worker-api';
import { BackendsService } from './backends.service';
import { BackendInfoDto, BackendStatusDto, BackendVoiceDto } from './dto/backend.dto';

@ApiTags('backends')
@ApiBearerAuth()
@Controller('backends')
export class BackendsController {
  constructor(private readonly backends: BackendsService) {}

  @Get()
  @ApiOperation({ summary: 'List the registered backends' })
  @ApiOkResponse({ type: [BackendInfoDto] })
  listBackends(): Promise<BackendInfo[]> {
    return this.backends.listBackends();
  }

  @Get(':name/status')
  @ApiOperation({ summary: 'Status of one backend: loaded models, memory, queues, dependencies' })
  @ApiOkResponse({ type: BackendStatusDto })
  @ApiNotFoundResponse({ type: WorkerErrorDto, description: 'Unknown backend' })
  getBackendStatus(@Param('name') name: string): Promise<BackendStatus> {
    return this.backends.getBackendStatus(name);
  }

  @Get(':name/voices')
  @ApiOperation({ summary: 'Built-in voices of an embedded engine (values for `voice_path`)' })
  @ApiOkResponse({ type: [BackendVoiceDto] })
  @ApiNotFoundResponse({
    type: WorkerErrorDto,
    description: 'Unknown backend, or one without built-in voices',
  })
  listBackendVoices(
    @Param('name') name: string,
    @Res({ passthrough: true }) response: Response,
  ): Promise<BackendVoice[]> {
    return this.backends.listBackendVoices(name, responseAbortSignal(response));
  }
}
