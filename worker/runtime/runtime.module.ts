import { Global, Module } from '@nestjs/common';

import { WORKER_CONFIG } from '../config/config.module';
import type { WorkerConfig } from '../config/worker-config';
import { DeviceService, nvidiaDriverPresent } from './device.service';
import { ModelRuntime } from './model-runtime.service';

@Global()
@Module({
  providers: [
    ModelRuntime,
    {
      provide: DeviceService,
      inject: [WORKER_CONFIG],
      useFactory: (config: WorkerConfig) => new DeviceService(config.inference.device, nvidiaDriverPresent()),
    },
  ],
  exports: [ModelRuntime, DeviceService],
})
export class RuntimeModule {}
