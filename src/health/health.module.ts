import { Module } from '@nestjs/common';
import { FleetModule } from '../fleet/fleet.module';
import { HealthController } from './health.controller';
import { HealthService } from './health.service';

@Module({
  imports: [FleetModule],
  controllers: [HealthController],
  providers: [HealthService],
})
export class HealthModule {}
