import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { NextFunction, Request, Response } from 'express';

/**
 * Serves the Angular client's index.html for every non-API GET that no static file answered, so client-side
 * routes (including `/_/`, the records admin) survive a reload. `/api/*` never falls through to HTML.
 */
export function spaFallback(clientDir: string) {
  const index = join(clientDir, 'index.html');
  return (req: Request, res: Response, next: NextFunction): void => {
    if (
      (req.method !== 'GET' && req.method !== 'HEAD') ||
      req.path === '/api' ||
      req.path.startsWith('/api/')
    ) {
      next();
      return;
    }
    if (!existsSync(index)) {
      res
        .status(503)
        .type('text/plain')
        .send('The web client is not built yet. Run `npm start` (it builds the client) or `npm run build`.');
      return;
    }
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(index);
  };
}
