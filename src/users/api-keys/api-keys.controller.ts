import { Body, Controller, Delete, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { ApiErrorDto } from '../../common/errors/api-error';
import type { AuthContext } from '../../records/auth/auth-context';
import { AuthGuard, CurrentAuth } from '../../records/auth/auth.guards';
import { ApiKeysService } from './api-keys.service';
import { ApiKeyDto, CreateApiKeyDto, CreatedApiKeyDto } from './dto/api-key.dto';

@ApiTags('api-keys')
@ApiBearerAuth()
@ApiUnauthorizedResponse({ type: ApiErrorDto })
@UseGuards(AuthGuard)
@Controller('keys')
export class ApiKeysController {
  constructor(private readonly service: ApiKeysService) {}

  /** The caller's API keys (never the keys themselves). */
  @Get()
  @ApiOkResponse({ type: [ApiKeyDto] })
  listApiKeys(@CurrentAuth() auth: AuthContext): Promise<ApiKeyDto[]> {
    return this.service.list(auth);
  }

  /** Creates a key; the response is the only time the key is shown. */
  @Post()
  @ApiCreatedResponse({ type: CreatedApiKeyDto })
  createApiKey(@CurrentAuth() auth: AuthContext, @Body() dto: CreateApiKeyDto): Promise<CreatedApiKeyDto> {
    return this.service.create(auth, dto);
  }

  /** Revokes one of the caller's keys. */
  @Delete(':id')
  @HttpCode(204)
  @ApiNoContentResponse()
  @ApiNotFoundResponse({ type: ApiErrorDto })
  revokeApiKey(@CurrentAuth() auth: AuthContext, @Param('id') id: string): Promise<void> {
    return this.service.revoke(auth, id);
  }
}
