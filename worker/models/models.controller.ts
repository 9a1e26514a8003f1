import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  type MessageEvent,
  Param,
  ParseBoolPipe,
  Post,
  Query,
  RequestMethod,
  Sse,
} from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiConflictResponse,
  ApiExtraModels,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiQuery,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import type { Observable } from 'rxjs';

import { WorkerErrorDto } from '../common/dto/worker-error.dto';
import type {
  DeleteModelResponse,
  InstalledModel,
  ModelInstallCheck,
  UnloadModelResponse,
} from '../contract/worker-api';
import {
  DeleteModelResponseDto,
  InstalledModelDto,
  ModelInstallCheckDto,
  PullEventDto,
  PullRequestDto,
  UnloadModelRequestDto,
  UnloadModelResponseDto,
} from './dto/models.dto';
import { ModelsService } from './models.service';

/** Errors of the SSE route are answered as JSON, before the stream starts. */
const JSON_ERROR = { 'application/json': { schema: { $ref: getSchemaPath(WorkerErrorDto) } } };

@ApiTags('models')
@ApiBearerAuth()
@ApiExtraModels(WorkerErrorDto)
@Controller('models')
export class ModelsController {
  constructor(private readonly models: ModelsService) {}

  @Sse('pull', { method: RequestMethod.POST })
  @HttpCode(200)
  @ApiOperation({
    summary: 'Download, verify and install a model; progress as Server-Sent Events',
    description:
      'Each event is `data: <PullEvent JSON>`: `installing` while the backend npm packages install, ' +
      '`downloading` (progress 0–99, at most one event per percent and ten per second), then `complete` ' +
      '(progress 100) or `error` (with `message`). Lines starting with `:` are keep-alive comments. Files are ' +
      'staged as `.part` files, resumed with HTTP Range after a cut, checked against their size and sha256 (the ' +
      "catalog's, else the hub's X-Linked-Etag/ETag), moved into `<models>/<backend>/<variant>` atomically and " +
      '`manifest.json` is written last. Concurrent pulls of the same `dest_path` share one download. When the ' +
      'last client disconnects the pull goes on for a few seconds (a reconnecting client picks it up), then ' +
      'is cancelled, keeping its `.part` files so that the next pull resumes them. A pull of a variant that is ' +
      'already installed with the same files completes at once.',
  })
  @ApiProduces('text/event-stream')
  @ApiOkResponse({ type: PullEventDto, description: 'Stream of pull events' })
  @ApiBadRequestResponse({
    description:
      'Invalid request: unsafe path, dest_path not matching the manifest, unknown or embedded backend',
    content: JSON_ERROR,
  })
  @ApiConflictResponse({
    description:
      'A pull of different files into the same dest_path is running, or the variant is being deleted',
    content: JSON_ERROR,
  })
  pullModel(@Body() request: PullRequestDto): Promise<Observable<MessageEvent>> {
    return this.models.pullModel(request);
  }

  @Get()
  @ApiOperation({
    summary: 'Installed models, found by scanning the models directory',
    description:
      'A variant counts when its manifest.json is valid and all its files are present with their sizes.',
  })
  @ApiOkResponse({ type: [InstalledModelDto] })
  listModels(): Promise<InstalledModel[]> {
    return this.models.listModels();
  }

  @Get(':backend/:variant')
  @ApiOperation({
    summary: 'Install check of one variant',
    description:
      '200 when installed (manifest present, files with their recorded sizes); `verify=true` also recomputes every sha256.',
  })
  @ApiQuery({ name: 'verify', required: false, type: Boolean })
  @ApiOkResponse({ type: ModelInstallCheckDto })
  @ApiNotFoundResponse({ type: WorkerErrorDto, description: 'Not installed (the message says why)' })
  @ApiBadRequestResponse({ type: WorkerErrorDto, description: 'Invalid backend or variant name' })
  getModel(
    @Param('backend') backend: string,
    @Param('variant') variant: string,
    @Query('verify', new ParseBoolPipe({ optional: true })) verify?: boolean,
  ): Promise<ModelInstallCheck> {
    return this.models.getModel(backend, variant, verify ?? false);
  }

  @Delete(':backend/:variant')
  @ApiOperation({
    summary: 'Delete an installed variant',
    description:
      'A loaded model is unloaded first when it is idle. While requests are running on it or waiting for it, ' +
      'or while it is being pulled, the model is NOT deleted: the answer is 409 and the caller retries later. ' +
      'The folder is renamed aside before it is removed, so a half-deleted variant never counts as installed.',
  })
  @ApiOkResponse({ type: DeleteModelResponseDto })
  @ApiNotFoundResponse({ type: WorkerErrorDto, description: 'No such variant' })
  @ApiConflictResponse({ type: WorkerErrorDto, description: 'The model is in use or being pulled' })
  @ApiBadRequestResponse({ type: WorkerErrorDto, description: 'Invalid backend or variant name' })
  deleteModel(
    @Param('backend') backend: string,
    @Param('variant') variant: string,
  ): Promise<DeleteModelResponse> {
    return this.models.deleteModel(backend, variant);
  }

  @Post('unload')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Free the memory of a loaded model',
    description: '`scheduled`: requests are running on it; it is unloaded when the last one ends.',
  })
  @ApiOkResponse({ type: UnloadModelResponseDto })
  @ApiNotFoundResponse({ type: WorkerErrorDto, description: 'Unknown backend' })
  @ApiBadRequestResponse({ type: WorkerErrorDto, description: 'Invalid request' })
  unloadModel(@Body() request: UnloadModelRequestDto): Promise<UnloadModelResponse> {
    return this.models.unloadModel(request);
  }
}
