import { Module } from '@nestjs/common';
import { ModelsModule } from '../models/models.module';
import { VoicesController } from './voices.controller';
import { VoicesRepository } from './voices.repository';
import { VoicesService } from './voices.service';

@Module({
  imports: [ModelsModule],
  controllers: [VoicesController],
  providers: [VoicesRepository, VoicesService],
  exports: [VoicesService],
})
export class VoicesModule {}
