import { Global, Inject, Logger, Module, OnApplicationBootstrap } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';

import { WORKER_CONFIG } from '../config/config.module';
import type { WorkerConfig } from '../config/worker-config';
import { BearerAuthGuard } from './bearer-auth.guard';
import { BearerTokenVerifier } from './bearer-token';

@Global()
@Module({
  providers: [
    {
      provide: BearerTokenVerifier,
      inject: [WORKER_CONFIG],
      useFactory: (config: WorkerConfig) => new BearerTokenVerifier(config.auth.token),
    },
    { provide: APP_GUARD, useClass: BearerAuthGuard },
  ],
  exports: [BearerTokenVerifier],
})
export class AuthModule implements OnApplicationBootstrap {
  constructor(@Inject(BearerTokenVerifier) private readonly verifier: BearerTokenVerifier) {}

  onApplicationBootstrap(): void {
    if (!this.verifier.enabled) {
      new Logger('Auth').warn(
        'INFERENCE_AUTH_TOKEN is not set: the worker accepts requests from anyone who can reach it. ' +
          'Set it unless the worker is only reachable from a trusted network.',
      );
    }
  }
}
