import {
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Patch,
  Post,
  Req,
  UseGuards,
  UseInterceptors,
} from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request } from 'express';
import type { AuthContext } from './auth/auth-context';
import { CurrentAuth, OptionalAuthGuard } from './auth/auth.guards';
import { readSubmittedInput } from './record-input';
import type { RecordJson } from './record-view';
import { ListResult, RecordsService } from './records.service';
import { requestInfo } from './request-info';
import { UploadsInterceptor } from './uploads.interceptor';

/**
 * PocketBase's records API: `/api/collections/{collection}/records[/{id}]` ({collection} = name or id). Its client
 * is the official `pocketbase` SDK, so it is left out of the OpenAPI document.
 */
@ApiExcludeController()
@Controller('collections/:collection/records')
@UseGuards(OptionalAuthGuard)
export class RecordsController {
  constructor(private readonly records: RecordsService) {}

  @Get()
  listRecords(
    @Param('collection') collection: string,
    @Req() request: Request,
    @CurrentAuth() auth: AuthContext | null,
  ): Promise<ListResult> {
    return this.records.list(collection, request.query, requestInfo(request, auth));
  }

  @Get(':id')
  viewRecord(
    @Param('collection') collection: string,
    @Param('id') id: string,
    @Req() request: Request,
    @CurrentAuth() auth: AuthContext | null,
  ): Promise<RecordJson> {
    return this.records.view(collection, id, request.query, requestInfo(request, auth));
  }

  @Post()
  @HttpCode(200)
  @UseInterceptors(UploadsInterceptor)
  createRecord(
    @Param('collection') collection: string,
    @Req() request: Request,
    @CurrentAuth() auth: AuthContext | null,
  ): Promise<RecordJson> {
    return this.records.create(
      collection,
      readSubmittedInput(request),
      request.query,
      requestInfo(request, auth),
    );
  }

  @Patch(':id')
  @UseInterceptors(UploadsInterceptor)
  updateRecord(
    @Param('collection') collection: string,
    @Param('id') id: string,
    @Req() request: Request,
    @CurrentAuth() auth: AuthContext | null,
  ): Promise<RecordJson> {
    return this.records.update(
      collection,
      id,
      readSubmittedInput(request),
      request.query,
      requestInfo(request, auth),
    );
  }

  @Delete(':id')
  @HttpCode(204)
  deleteRecord(
    @Param('collection') collection: string,
    @Param('id') id: string,
    @Req() request: Request,
    @CurrentAuth() auth: AuthContext | null,
  ): Promise<void> {
    return this.records.delete(collection, id, requestInfo(request, auth));
  }
}
