import { MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { sseTokenMiddleware } from '../common/sse-token.middleware';
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
export class GenerationsModule implements NestModule {
  /** `<audio src>` cannot send headers either: the audio download also accepts `?token=`. */
  configure(consumer: MiddlewareConsumer): void {
    consumer
      .apply(sseTokenMiddleware)
      .forRoutes({ path: 'generations/:id/audio', method: RequestMethod.GET });
  }
}
