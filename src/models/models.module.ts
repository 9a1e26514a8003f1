import { Module } from '@nestjs/common';
import { CatalogService } from './catalog.service';
import { ModelsController } from './models.controller';

@Module({
  controllers: [ModelsController],
  providers: [CatalogService],
  exports: [CatalogService],
})
export class ModelsModule {}
