import { existsSync } from 'node:fs';

import type { InferenceDevice } from '../contract/worker-api';

export interface DeviceState {
  requested: InferenceDevice;
  /** Device inference actually runs on. */
  effective: InferenceDevice;
  note?: string;
}

/** Looks for an NVIDIA driver without loading any GPU library (files the kernel driver exposes). */
export function nvidiaDriverPresent(exists: (path: string) => boolean = existsSync): boolean {
  return exists('/proc/driver/nvidia/version') || exists('/dev/nvidiactl');
}

/**
 * The worker's effective device: CUDA only when it was asked for and a driver is present; otherwise CPU, with a
 * note saying why. Backends that load a GPU runtime may refine this later (a driver without a usable runtime).
 */
export class DeviceService {
  private current: DeviceState;

  constructor(requested: InferenceDevice, driverPresent: boolean) {
    if (requested === 'cuda' && !driverPresent) {
      this.current = {
        requested,
        effective: 'cpu',
        note: 'INFERENCE_DEVICE=cuda but no NVIDIA driver was found; running on CPU',
      };
    } else {
      this.current = { requested, effective: requested };
    }
  }

  state(): DeviceState {
    return this.current;
  }

  /**
   * A backend found CUDA unusable although a driver is present (e.g. ONNX Runtime's CUDA provider libraries are
   * missing): from now on the worker runs on CPU, and `/health` says why. No-op when already on CPU.
   */
  fallBackToCpu(reason: string): void {
    if (this.current.effective === 'cpu') {
      return;
    }
    this.current = {
      requested: this.current.requested,
      effective: 'cpu',
      note: `CUDA is not usable: ${reason}; running on CPU`,
    };
  }
}
