import 'reflect-metadata';

import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';

import { AppModule } from './app.module';
import { configureApp } from './app.setup';
import { readAppInfo } from './config/app-info';
import { ConfigError, loadWorkerConfigFromProcess, type WorkerConfig } from './config/worker-config';

async function bootstrap(): Promise<void> {
  let config: WorkerConfig;
  try {
    config = loadWorkerConfigFromProcess();
  } catch (error) {
    if (error instanceof ConfigError) {
      // One clear line, no stack: the operator's fix is in the message.
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }

  const appInfo = readAppInfo();
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config, appInfo), {
    bufferLogs: true,
    bodyParser: false,
  });
  configureApp(app, appInfo);
  await app.listen(config.server.port);

  const address = app.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : config.server.port;
  app.get(Logger).log(
    {
      port,
      version: appInfo.version,
      device: config.inference.device,
      modelsPath: config.inference.modelsPath,
    },
    `Chorus worker ${appInfo.version} listening on port ${port}`,
    'Bootstrap',
  );
}

bootstrap().catch((error: unknown) => {
  process.stderr.write(
    `Chorus worker failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
