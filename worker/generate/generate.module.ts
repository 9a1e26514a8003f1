import { Module } from '@nestjs/common';

import { BackendsModule } from '../backends/backends.module';
import { GenerateController } from './generate.controller';
import { GenerateService } from './generate.service';

@Module({
  imports: [BackendsModule],
  controllers: [GenerateController],
  providers: [GenerateService],
})
export class GenerateModule {}
