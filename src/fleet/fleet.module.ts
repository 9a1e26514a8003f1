import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { FleetRepository } from './fleet.repository';
import { FleetService } from './fleet.service';
import { InferenceServerEntity } from './inference-server.entity';
import { WorkerClient } from './worker-client';

@Module({
  imports: [TypeOrmModule.forFeature([InferenceServerEntity])],
  providers: [FleetRepository, FleetService, WorkerClient],
  exports: [FleetService, WorkerClient],
})
export class FleetModule {}
