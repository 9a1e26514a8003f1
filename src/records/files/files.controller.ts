import { Controller, Get, HttpCode, Param, Post, Query, Res, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiError } from '../../common/errors/api-error';
import type { AuthContext } from '../auth/auth-context';
import { AuthGuard, CurrentAuth } from '../auth/auth.guards';
import { AuthService } from '../auth/auth.service';
import { FilesService } from './files.service';

function truthy(value: unknown): boolean {
  return typeof value === 'string' && value !== '' && !/^(0|f|false|no|off)$/i.test(value);
}

/** Record files: downloads (with thumbs and protected-file tokens) and file tokens, PocketBase's contract. */
@ApiExcludeController()
@Controller('files')
export class FilesController {
  constructor(
    private readonly files: FilesService,
    private readonly auth: AuthService,
  ) {}

  @Post('token')
  @HttpCode(200)
  @UseGuards(AuthGuard)
  async getFileToken(@CurrentAuth() auth: AuthContext): Promise<{ token: string }> {
    return { token: await this.auth.issueFileToken(auth) };
  }

  @Get(':collection/:recordId/:filename')
  async downloadFile(
    @Param('collection') collection: string,
    @Param('recordId') recordId: string,
    @Param('filename') filename: string,
    @Query() query: Record<string, unknown>,
    @Res() res: Response,
  ): Promise<void> {
    const served = await this.files.resolve(collection, recordId, filename, {
      thumb: typeof query.thumb === 'string' ? query.thumb : undefined,
      token: typeof query.token === 'string' ? query.token : undefined,
    });
    const headers: Record<string, string> = {
      // Stored names never repeat (random suffix), so public files can be cached for long.
      'Cache-Control': served.protected ? 'private, no-store' : 'public, max-age=2592000',
      // Uploaded content must never run as a page of this origin.
      'Content-Security-Policy':
        "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; sandbox",
    };
    if (truthy(query.download)) {
      headers['Content-Disposition'] = `attachment; filename="${served.name}"`;
    }
    await new Promise<void>((resolve, reject) => {
      res.sendFile(served.path, { headers, dotfiles: 'deny' }, (error) => {
        // Once bytes are out (e.g. the client went away mid-file) there is nothing left to answer.
        if (error && !res.headersSent) {
          reject(ApiError.notFound());
        } else {
          resolve();
        }
      });
    });
  }
}
