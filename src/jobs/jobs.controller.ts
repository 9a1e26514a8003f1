import { Controller, Delete, Get, MessageEvent, Param, Sse, UseGuards } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiProduces,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { Observable, map, merge } from 'rxjs';
import { ApiErrorDto } from '../common/errors/api-error';
import { heartbeat, sseMessage } from '../common/sse';
import { AdminGuard } from '../records/auth/auth.guards';
import { JobDto, JobStreamEventDto } from './dto/job.dto';
import { JobsService } from './jobs.service';

/** Pull jobs are admin business: only admins (and superusers) see or cancel them. */
@ApiTags('jobs')
@ApiBearerAuth()
@ApiUnauthorizedResponse({ type: ApiErrorDto })
@ApiForbiddenResponse({ type: ApiErrorDto })
@UseGuards(AdminGuard)
@Controller('jobs')
export class JobsController {
  constructor(private readonly jobs: JobsService) {}

  @Get()
  @ApiOkResponse({ type: [JobDto] })
  listJobs(): JobDto[] {
    return this.jobs.list();
  }

  /** SSE: a snapshot of every job, then each job as it changes. Accepts `?token=` for EventSource clients. */
  @Sse('stream')
  @ApiProduces('text/event-stream')
  @ApiOkResponse({ type: JobStreamEventDto, description: 'Server-Sent Events; `data` is a JobStreamEvent.' })
  streamJobs(): Observable<MessageEvent> {
    return merge(this.jobs.stream().pipe(map((event) => sseMessage(event))), heartbeat());
  }

  @Get(':id')
  @ApiOkResponse({ type: JobDto })
  @ApiNotFoundResponse({ type: ApiErrorDto })
  getJob(@Param('id') id: string): JobDto {
    return this.jobs.get(id);
  }

  /** Cancels a running pull: the worker's download stops and nothing is installed. */
  @Delete(':id')
  @ApiOkResponse({ type: JobDto })
  @ApiNotFoundResponse({ type: ApiErrorDto })
  cancelJob(@Param('id') id: string): JobDto {
    return this.jobs.cancel(id);
  }
}
