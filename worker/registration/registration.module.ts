import { Module } from '@nestjs/common';

import { RegistrationClient } from './registration.client';
import { DEFAULT_REGISTRATION_OPTIONS, REGISTRATION_OPTIONS } from './registration.options';
import { RegistrationService } from './registration.service';

/** Self-registration with the main service at start-up; its state is reported by `/health`. */
@Module({
  providers: [
    { provide: REGISTRATION_OPTIONS, useValue: DEFAULT_REGISTRATION_OPTIONS },
    RegistrationClient,
    RegistrationService,
  ],
  exports: [RegistrationService],
})
export class RegistrationModule {}
