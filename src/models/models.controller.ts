import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  MessageEvent,
  Param,
  Post,
  Query,
  Sse,
  UseGuards,
} from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiConflictResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiProduces,
  ApiQuery,
  ApiServiceUnavailableResponse,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { Observable, map, merge } from 'rxjs';
import type { CatalogEntry } from '../../worker/contract/worker-api';
import { ApiErrorDto } from '../common/errors/api-error';
import { heartbeat, sseMessage } from '../common/sse';
import { AdminGuard, AuthGuard } from '../records/auth/auth.guards';
import { CatalogService } from './catalog.service';
import { CatalogEntryDto } from './dto/catalog-entry.dto';
import {
  InstalledModelDto,
  ModelDeletionDto,
  ModelEventDto,
  PullModelDto,
  PullStartedDto,
} from './dto/installed-model.dto';
import { ModelsService } from './models.service';

@ApiTags('models')
@ApiBearerAuth()
@ApiUnauthorizedResponse({ type: ApiErrorDto })
@Controller('models')
export class ModelsController {
  constructor(
    private readonly catalog: CatalogService,
    private readonly models: ModelsService,
  ) {}

  /** The embedded catalog of installable models, unchanged. */
  @Get('catalog')
  @UseGuards(AuthGuard)
  @ApiOkResponse({ type: [CatalogEntryDto] })
  getCatalog(): readonly CatalogEntry[] {
    return this.catalog.list();
  }

  /** Catalog models installed on online workers, each with the workers holding it. */
  @Get('installed')
  @UseGuards(AuthGuard)
  @ApiOkResponse({ type: [InstalledModelDto] })
  listInstalledModels(): Promise<InstalledModelDto[]> {
    return this.models.installed();
  }

  /**
   * SSE pinged whenever a model is installed on or removed from a worker: refresh the installed list. Accepts
   * `?token=` for EventSource clients.
   */
  @Sse('events')
  @UseGuards(AuthGuard)
  @ApiProduces('text/event-stream')
  @ApiOkResponse({
    type: ModelEventDto,
    description: 'Server-Sent Events; `data` is a ModelEvent (or a ping).',
  })
  streamModelEvents(): Observable<MessageEvent> {
    return merge(this.models.events().pipe(map((event) => sseMessage(event))), heartbeat());
  }

  /**
   * Installs a model on workers (admins): one job per target worker, followed through GET /api/jobs/stream.
   * 404 unknown model, 409 already installed (or embedded), 503 no online worker.
   */
  @Post(':id/pull')
  @UseGuards(AdminGuard)
  @ApiOkResponse({ type: PullStartedDto })
  @ApiForbiddenResponse({ type: ApiErrorDto })
  @ApiNotFoundResponse({ type: ApiErrorDto })
  @ApiConflictResponse({ type: ApiErrorDto })
  @ApiServiceUnavailableResponse({ type: ApiErrorDto })
  @HttpCode(200)
  pullModel(@Param('id') id: string, @Body() dto: PullModelDto): Promise<PullStartedDto> {
    return this.models.startPull(id, dto.serverIds);
  }

  /**
   * Installs a model on every online worker lacking it (admins) and streams the progress directly (SSE; each
   * event is a job: progress 0–100, status, speed, serverId…), ending when every job has finished.
   */
  @Sse(':id/pull')
  @UseGuards(AdminGuard)
  @ApiProduces('text/event-stream')
  @ApiOkResponse({ description: 'Server-Sent Events; `data` is a Job.' })
  @ApiNotFoundResponse({ type: ApiErrorDto })
  @ApiConflictResponse({ type: ApiErrorDto })
  async streamModelPull(@Param('id') id: string): Promise<Observable<MessageEvent>> {
    const started = await this.models.startPull(id);
    return this.models.watch(started.jobs.map((job) => job.id)).pipe(map((job) => sseMessage(job)));
  }

  /** Removes a model from every online worker holding it, or from one (`?server=`), reporting each worker. */
  @Delete(':id')
  @UseGuards(AdminGuard)
  @ApiQuery({ name: 'server', required: false, description: 'Inference server id' })
  @ApiOkResponse({ type: ModelDeletionDto })
  @ApiForbiddenResponse({ type: ApiErrorDto })
  @ApiNotFoundResponse({ type: ApiErrorDto })
  @ApiConflictResponse({ type: ApiErrorDto })
  deleteModel(@Param('id') id: string, @Query('server') server?: string): Promise<ModelDeletionDto> {
    return this.models.remove(id, server);
  }
}
