import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { HealthDto, VersionDto } from './dto/health.dto';
import { HealthService } from './health.service';

@ApiTags('health')
@Controller()
export class HealthController {
  constructor(private readonly service: HealthService) {}

  /** Status of the service, its database and the fleet of workers. Always 200 while the process serves. */
  @Get('health')
  @ApiOkResponse({ type: HealthDto })
  getHealth(): Promise<HealthDto> {
    return this.service.health();
  }

  @Get('version')
  @ApiOkResponse({ type: VersionDto })
  getVersion(): VersionDto {
    return this.service.getVersion();
  }
}
