import { DynamicModule, Global, Module } from '@nestjs/common';
import { AuthController } from './auth/auth.controller';
import { AdminGuard, AuthGuard, OptionalAuthGuard, SuperuserGuard } from './auth/auth.guards';
import { AuthService } from './auth/auth.service';
import { LoginThrottle } from './auth/login-throttle';
import { ParamsRepository } from './auth/params.repository';
import { RecordAuthService } from './auth/record-auth.service';
import { COLLECTION_DEFINITIONS, CollectionRegistry } from './collections/collection-registry';
import { CollectionsController } from './collections/collections.controller';
import { CollectionsService } from './collections/collections.service';
import { COLLECTIONS } from './collections';
import { FileStorage } from './files/file-storage';
import { FilesController } from './files/files.controller';
import { FilesService } from './files/files.service';
import { RealtimeBroker } from './realtime/realtime-broker';
import { RealtimeController } from './realtime/realtime.controller';
import { RecordEvents } from './realtime/record-events';
import { RecordEnricher } from './record-enricher';
import { RECORDS_CONFIG, RecordsConfig } from './records.config';
import { RecordsController } from './records.controller';
import { RecordsRepository } from './records.repository';
import { RecordsService } from './records.service';
import { RuleEngine } from './rules';
import { UploadsInterceptor } from './uploads.interceptor';

/**
 * The records layer: PocketBase's REST contract (records, auth, files, realtime) over the app's TypeORM entities.
 * Global, so any feature can inject AuthService (and its guards / @CurrentAuth()) and RecordEvents.
 */
@Global()
@Module({})
export class RecordsModule {
  static forRoot(config: RecordsConfig): DynamicModule {
    return {
      module: RecordsModule,
      controllers: [
        // Collections' sub-routes before the generic `/collections/:collection` of the collections API.
        AuthController,
        RecordsController,
        CollectionsController,
        FilesController,
        RealtimeController,
      ],
      providers: [
        { provide: RECORDS_CONFIG, useValue: config },
        { provide: COLLECTION_DEFINITIONS, useValue: COLLECTIONS },
        CollectionRegistry,
        RecordsRepository,
        ParamsRepository,
        RuleEngine,
        RecordEnricher,
        RecordsService,
        AuthService,
        RecordAuthService,
        LoginThrottle,
        FileStorage,
        FilesService,
        RealtimeBroker,
        RecordEvents,
        CollectionsService,
        UploadsInterceptor,
        OptionalAuthGuard,
        AuthGuard,
        SuperuserGuard,
        AdminGuard,
      ],
      exports: [
        AuthService,
        RecordEvents,
        CollectionRegistry,
        FileStorage,
        RecordsRepository,
        OptionalAuthGuard,
        AuthGuard,
        SuperuserGuard,
        AdminGuard,
        RECORDS_CONFIG,
      ],
    };
  }
}
