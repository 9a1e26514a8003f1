import { Global, Module } from '@nestjs/common';

import { NpmInstaller } from './npm-installer';
import { PackagesService } from './packages.service';

/** Backend dependencies installed on demand into PACKAGES_DIR. Global: backends inject it to load their packages. */
@Global()
@Module({
  providers: [NpmInstaller, PackagesService],
  exports: [PackagesService],
})
export class PackagesModule {}
