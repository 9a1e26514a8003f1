import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { FleetController } from './fleet.controller';
import { FleetRepository } from './fleet.repository';
import { FleetService } from './fleet.service';
import { InferenceServerEntity } from './inference-server.entity';
import { RegistrationTokenEntity } from './registration-token.entity';
import { RegistrationService } from './registration.service';
import { WorkerClient } from './worker-client';

@Module({
  imports: [TypeOrmModule.forFeature([InferenceServerEntity, RegistrationTokenEntity])],
  controllers: [FleetController],
  providers: [FleetRepository, FleetService, WorkerClient, RegistrationService],
  exports: [FleetService, WorkerClient, FleetRepository],
})
export class FleetModule {}
