import { Module } from '@nestjs/common';

import { BackendsModule } from '../backends/backends.module';
import { HubClient } from './hub.client';
import { ModelPullService } from './model-pull.service';
import { ModelStore } from './model-store.service';
import { DEFAULT_MODEL_STORE_OPTIONS, MODEL_STORE_OPTIONS } from './model-store.options';
import { ModelsController } from './models.controller';
import { ModelsService } from './models.service';

/** The model store: `/models` pull, list, install check, delete and unload. */
@Module({
  imports: [BackendsModule],
  controllers: [ModelsController],
  providers: [
    { provide: MODEL_STORE_OPTIONS, useValue: DEFAULT_MODEL_STORE_OPTIONS },
    HubClient,
    ModelStore,
    ModelPullService,
    ModelsService,
  ],
  exports: [ModelStore],
})
export class ModelsModule {}
