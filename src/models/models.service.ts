import { Inject, Injectable, Logger } from '@nestjs/common';
import { Observable, Subject } from 'rxjs';
import type { CatalogEntry, InstalledModel, PullEvent } from '../../worker/contract/worker-api';
import { ApiError } from '../common/errors/api-error';
import { readSseJson } from '../common/sse';
import { APP_CONFIG, AppConfig } from '../config/configuration';
import { FleetService } from '../fleet/fleet.service';
import { InferenceServerEntity } from '../fleet/inference-server.entity';
import { WorkerClient } from '../fleet/worker-client';
import { JobDto } from '../jobs/dto/job.dto';
import { JobsService } from '../jobs/jobs.service';
import { CatalogService } from './catalog.service';
import {
  InstalledModelDto,
  ModelDeletionDto,
  ModelDeletionResultDto,
  ModelEventDto,
  ModelWorkerDto,
  PullStartedDto,
} from './dto/installed-model.dto';

/** Timeout of one listing call to a worker while aggregating the installed view. */
const LIST_TIMEOUT_MS = 5_000;

/** What one worker holds: installed models by catalog id, and the embedded backends it can run. */
interface WorkerInventory {
  server: InferenceServerEntity;
  models: Map<string, InstalledModel>;
  backends: Set<string>;
  loaded: Set<string>;
}

/**
 * Installed models across the fleet, and pulls/removals orchestrated on workers: one job per target worker, the
 * worker's SSE progress relayed into the job store, a model event when a model appears or disappears.
 */
@Injectable()
export class ModelsService {
  private readonly logger = new Logger(ModelsService.name);
  private readonly modelEvents = new Subject<ModelEventDto>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly catalog: CatalogService,
    private readonly fleet: FleetService,
    private readonly client: WorkerClient,
    private readonly jobs: JobsService,
  ) {}

  events(): Observable<ModelEventDto> {
    return this.modelEvents.asObservable();
  }

  async installed(): Promise<InstalledModelDto[]> {
    const inventories = await this.inventories(this.fleet.online());
    const result: InstalledModelDto[] = [];
    for (const entry of this.catalog.list()) {
      const workers: ModelWorkerDto[] = [];
      for (const inventory of inventories) {
        const held = holds(inventory, entry);
        if (held) {
          workers.push({
            serverId: inventory.server.id,
            serverName: inventory.server.name,
            device: inventory.server.device,
            loaded: held === true ? inventory.loaded.has(entry.backend) : held.loaded,
            installedAt: held === true ? undefined : held.installedAt,
          });
        }
      }
      if (workers.length > 0) {
        result.push({ id: entry.id, entry: entry, workers });
      }
    }
    return result;
  }

  async startPull(modelId: string, serverIds?: string[]): Promise<PullStartedDto> {
    const entry = this.requireEntry(modelId);
    if (entry.embedded) {
      throw new ApiError(
        409,
        `Model "${entry.id}" is embedded in every worker: there is nothing to install.`,
      );
    }
    const online = this.fleet.online();
    let targets: InferenceServerEntity[];
    if (serverIds && serverIds.length > 0) {
      targets = [...new Set(serverIds)].map((id) => {
        const server = this.fleet.find(id);
        if (!server) {
          throw ApiError.field('serverIds', 'validation_unknown_server', `Unknown inference server "${id}".`);
        }
        if (!online.includes(server)) {
          throw ApiError.unavailable(`Inference server "${server.name}" is not online.`);
        }
        return server;
      });
    } else {
      targets = online;
    }
    if (targets.length === 0) {
      throw ApiError.unavailable('No inference worker is online to install the model on.');
    }
    const inventories = await this.inventories(targets);
    const holding = inventories
      .filter((inventory) => holds(inventory, entry))
      .map((inventory) => inventory.server);
    if (serverIds && serverIds.length > 0 && holding.length > 0) {
      throw new ApiError(
        409,
        `Model "${entry.id}" is already installed on ${holding.map((s) => s.name).join(', ')}.`,
      );
    }
    const lacking = targets.filter((server) => !holding.includes(server));
    if (lacking.length === 0) {
      throw new ApiError(409, `Model "${entry.id}" is already installed on every online worker.`);
    }
    const jobs = lacking.map((server) => {
      const active = this.jobs.findActive(entry.id, server.id);
      if (active) {
        return active;
      }
      const { job, signal } = this.jobs.create(entry.id, server);
      void this.runPull(job, server, entry, signal);
      return job;
    });
    return { jobs: jobs.map((job) => ({ id: job.id, serverId: job.serverId })) };
  }

  /** Progress of the given jobs until all have finished. */
  watch(jobIds: string[]): Observable<JobDto> {
    return this.jobs.watch(jobIds);
  }

  async remove(modelId: string, serverId?: string): Promise<ModelDeletionDto> {
    const entry = this.requireEntry(modelId);
    if (entry.embedded) {
      throw new ApiError(409, `Model "${entry.id}" is embedded in every worker and cannot be removed.`);
    }
    let servers = this.fleet.online();
    if (serverId) {
      const server = this.fleet.find(serverId);
      if (!server) {
        throw ApiError.notFound('Inference server not found.');
      }
      servers = [server];
    }
    const inventories = await this.inventories(servers);
    const holding = inventories.filter((inventory) => holds(inventory, entry));
    if (holding.length === 0) {
      throw ApiError.notFound(
        `Model "${entry.id}" is not installed on ${serverId ? 'that worker' : 'any online worker'}.`,
      );
    }
    const results = await Promise.all(
      holding.map(async ({ server }): Promise<ModelDeletionResultDto> => {
        try {
          await this.client.deleteModel(server, entry.backend, entry.variant, 30_000);
          this.modelEvents.next({ type: 'removed', model: entry.id, serverId: server.id });
          return { serverId: server.id, serverName: server.name, ok: true };
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          this.logger.warn(`removing ${entry.id} from "${server.name}" failed: ${message}`);
          return { serverId: server.id, serverName: server.name, ok: false, error: message };
        }
      }),
    );
    return { results };
  }

  private requireEntry(modelId: string): CatalogEntry {
    const entry = this.catalog.find(modelId);
    if (!entry) {
      throw ApiError.notFound(`Unknown model "${modelId}".`);
    }
    return entry;
  }

  private async runPull(
    job: JobDto,
    server: InferenceServerEntity,
    entry: CatalogEntry,
    signal: AbortSignal,
  ): Promise<void> {
    try {
      this.jobs.update(job.id, { status: 'downloading' });
      const response = await this.client.pull(
        server,
        { url: this.config.hubUrl, dest_path: `${entry.backend}/${entry.variant}`, manifest: entry },
        signal,
      );
      let finished = false;
      for await (const event of readSseJson<PullEvent>(response.body as ReadableStream<Uint8Array>, signal)) {
        this.jobs.update(job.id, {
          status: event.status,
          progress: Math.max(0, Math.min(100, Math.round(event.progress))),
          speed: event.speed ?? '',
          file: event.file,
          downloaded: event.downloaded,
          total: event.total,
          error:
            event.status === 'error'
              ? (event.message ?? 'The worker failed to install the model.')
              : undefined,
        });
        if (event.status === 'complete') {
          this.modelEvents.next({ type: 'installed', model: entry.id, serverId: server.id });
          finished = true;
          break;
        }
        if (event.status === 'error') {
          finished = true;
          break;
        }
      }
      if (!finished && !signal.aborted) {
        this.jobs.update(job.id, {
          status: 'error',
          error: 'The connection to the worker ended before the install finished.',
        });
      }
    } catch (error) {
      if (!signal.aborted) {
        const message = error instanceof Error ? error.message : String(error);
        this.logger.warn(`pull of ${entry.id} on "${server.name}" failed: ${message}`);
        this.jobs.update(job.id, { status: 'error', error: message });
      }
    }
  }

  private async inventories(servers: InferenceServerEntity[]): Promise<WorkerInventory[]> {
    const results = await Promise.all(
      servers.map(async (server): Promise<WorkerInventory | undefined> => {
        try {
          const [models, backends] = await Promise.all([
            this.client.listModels(server, LIST_TIMEOUT_MS),
            this.client.listBackends(server, LIST_TIMEOUT_MS),
          ]);
          return {
            server,
            models: new Map(models.map((model) => [model.id, model])),
            backends: new Set(
              backends.filter((backend) => backend.dependenciesInstalled).map((backend) => backend.name),
            ),
            loaded: new Set(
              backends.filter((backend) => backend.loadedModels.length > 0).map((backend) => backend.name),
            ),
          };
        } catch (error) {
          this.logger.warn(
            `cannot list models of "${server.name}": ${error instanceof Error ? error.message : String(error)}`,
          );
          return undefined;
        }
      }),
    );
    return results.filter((inventory): inventory is WorkerInventory => inventory !== undefined);
  }
}

/** Whether a worker holds an entry: embedded engines count when the worker runs their backend. */
function holds(inventory: WorkerInventory, entry: CatalogEntry): InstalledModel | boolean {
  if (entry.embedded) {
    return inventory.backends.has(entry.backend);
  }
  const byId = inventory.models.get(entry.id);
  if (byId) {
    return byId;
  }
  return (
    [...inventory.models.values()].find(
      (model) => model.backend === entry.backend && model.variant === entry.variant,
    ) ?? false
  );
}
