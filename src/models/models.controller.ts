import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { CatalogEntry } from '../../worker/contract/worker-api';
import { CatalogService } from './catalog.service';
import { CatalogEntryDto } from './dto/catalog-entry.dto';

@ApiTags('models')
@Controller('models')
export class ModelsController {
  constructor(private readonly catalog: CatalogService) {}

  /** The embedded catalog of installable models, unchanged. */
  @Get('catalog')
  @ApiOkResponse({ type: [CatalogEntryDto] })
  getCatalog(): readonly CatalogEntry[] {
    return this.catalog.list();
  }
}
