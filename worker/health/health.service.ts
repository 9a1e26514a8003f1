import { Inject, Injectable } from '@nestjs/common';

import { APP_INFO, type AppInfo } from '../config/app-info';
import { WORKER_API_VERSION, type WorkerHealth } from '../contract/worker-api';
import { RegistrationService } from '../registration/registration.service';
import { DeviceService } from '../runtime/device.service';
import { ModelRuntime } from '../runtime/model-runtime.service';

@Injectable()
export class HealthService {
  constructor(
    private readonly device: DeviceService,
    private readonly runtime: ModelRuntime,
    private readonly registration: RegistrationService,
    @Inject(APP_INFO) private readonly appInfo: AppInfo,
  ) {}

  /** Synchronous and allocation-light: it answers in microseconds whatever inference is doing. */
  getHealth(): WorkerHealth {
    const device = this.device.state();
    return {
      status: 'ok',
      device: device.effective,
      requestedDevice: device.requested,
      ...(device.note ? { deviceNote: device.note } : {}),
      loadedModels: this.runtime.loadedModels(),
      version: this.appInfo.version,
      apiVersion: WORKER_API_VERSION,
      registration: this.registration.state(),
    };
  }
}
