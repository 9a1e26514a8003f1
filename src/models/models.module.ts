import { MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { sseTokenMiddleware } from '../common/sse-token.middleware';
import { FleetModule } from '../fleet/fleet.module';
import { JobsModule } from '../jobs/jobs.module';
import { CatalogService } from './catalog.service';
import { ModelsController } from './models.controller';
import { ModelsService } from './models.service';

@Module({
  imports: [FleetModule, JobsModule],
  controllers: [ModelsController],
  providers: [CatalogService, ModelsService],
  exports: [CatalogService, ModelsService],
})
export class ModelsModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer
      .apply(sseTokenMiddleware)
      .forRoutes(
        { path: 'models/events', method: RequestMethod.GET },
        { path: 'models/:id/pull', method: RequestMethod.GET },
      );
  }
}
