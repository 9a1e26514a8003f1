import { Module } from '@nestjs/common';

import { RegistrationModule } from '../registration/registration.module';
import { HealthController } from './health.controller';
import { HealthService } from './health.service';

@Module({ imports: [RegistrationModule], controllers: [HealthController], providers: [HealthService] })
export class HealthModule {}
