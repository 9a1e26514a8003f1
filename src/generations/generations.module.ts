import { Module } from '@nestjs/common';
import { FleetModule } from '../fleet/fleet.module';
import { ModelsModule } from '../models/models.module';
import { VoicesModule } from '../voices/voices.module';
import { GenerationsController } from './generations.controller';
import { GenerationsRepository } from './generations.repository';
import { GenerationsService } from './generations.service';
import { HistoryService } from './history.service';

@Module({
  imports: [FleetModule, ModelsModule, VoicesModule],
  controllers: [GenerationsController],
  providers: [GenerationsService, GenerationsRepository, HistoryService],
})
export class GenerationsModule {}
