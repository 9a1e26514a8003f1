import { Controller, Get, Param, Query, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { SuperuserGuard } from '../auth/auth.guards';
import { DEFAULT_PER_PAGE, MAX_PER_PAGE, queryString } from '../records.service';
import { CollectionJson, CollectionList, CollectionsService } from './collections.service';

/** Superusers only: the collections with their field schemas, rules and record counts (PocketBase's shape). */
@ApiExcludeController()
@Controller('collections')
@UseGuards(SuperuserGuard)
export class CollectionsController {
  constructor(private readonly collections: CollectionsService) {}

  @Get()
  listCollections(@Query() query: Record<string, unknown>): Promise<CollectionList> {
    const page = Math.max(1, Math.floor(Number(queryString(query, 'page'))) || 1);
    const perPage = Math.min(
      MAX_PER_PAGE,
      Math.max(1, Math.floor(Number(queryString(query, 'perPage'))) || DEFAULT_PER_PAGE),
    );
    return this.collections.list(page, perPage);
  }

  @Get(':collection')
  viewCollection(@Param('collection') collection: string): Promise<CollectionJson> {
    return this.collections.view(collection);
  }
}
