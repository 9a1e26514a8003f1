import { Body, Controller, Get, HttpCode, Param, Post, Req, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request } from 'express';
import type { AuthContext } from './auth-context';
import { CurrentAuth, OptionalAuthGuard } from './auth.guards';
import { AuthMethods, AuthResponse, RecordAuthService } from './record-auth.service';

/** Auth endpoints of the auth collections (`users`, `_superusers`), PocketBase's contract. */
@ApiExcludeController()
@Controller('collections/:collection')
export class AuthController {
  constructor(private readonly service: RecordAuthService) {}

  @Get('auth-methods')
  listAuthMethods(@Param('collection') collection: string, @Req() request: Request): AuthMethods {
    return this.service.authMethods(collection, request.query);
  }

  @Post('auth-with-password')
  @HttpCode(200)
  authWithPassword(
    @Param('collection') collection: string,
    @Body() body: unknown,
    @Req() request: Request,
  ): Promise<AuthResponse> {
    return this.service.authWithPassword(collection, body, request.ip ?? '', request.query);
  }

  @Post('auth-refresh')
  @HttpCode(200)
  @UseGuards(OptionalAuthGuard)
  authRefresh(
    @Param('collection') collection: string,
    @Req() request: Request,
    @CurrentAuth() auth: AuthContext | null,
  ): Promise<AuthResponse> {
    return this.service.authRefresh(collection, auth, request.query);
  }
}
