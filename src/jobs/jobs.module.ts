import { MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { sseTokenMiddleware } from '../common/sse-token.middleware';
import { JobsController } from './jobs.controller';
import { JobsService } from './jobs.service';

@Module({
  controllers: [JobsController],
  providers: [JobsService],
  exports: [JobsService],
})
export class JobsModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(sseTokenMiddleware).forRoutes('jobs/stream');
  }
}
