import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';

import { Public } from '../auth/public.decorator';
import type { WorkerHealth } from '../contract/worker-api';
import { WorkerHealthDto } from './dto/worker-health.dto';
import { HealthService } from './health.service';

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(private readonly health: HealthService) {}

  @Get()
  @Public()
  @ApiOperation({ summary: 'Liveness, effective device and loaded models (no authentication)' })
  @ApiOkResponse({ type: WorkerHealthDto })
  getHealth(): WorkerHealth {
    return this.health.getHealth();
  }
}
