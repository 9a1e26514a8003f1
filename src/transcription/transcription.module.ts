import { Module } from '@nestjs/common';
import { FleetModule } from '../fleet/fleet.module';
import { ModelsModule } from '../models/models.module';
import { TranscriptionController } from './transcription.controller';
import { TranscriptionService } from './transcription.service';

@Module({
  imports: [FleetModule, ModelsModule],
  controllers: [TranscriptionController],
  providers: [TranscriptionService],
})
export class TranscriptionModule {}
