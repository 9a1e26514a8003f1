import { Module } from '@nestjs/common';
import { FleetModule } from '../fleet/fleet.module';
import { ModelsModule } from '../models/models.module';
import { GenerationsController } from './generations.controller';
import { GenerationsService } from './generations.service';

@Module({
  imports: [FleetModule, ModelsModule],
  controllers: [GenerationsController],
  providers: [GenerationsService],
})
export class GenerationsModule {}
