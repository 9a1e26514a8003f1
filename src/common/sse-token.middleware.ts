import type { NextFunction, Request, Response } from 'express';

/**
 * Browsers' EventSource and `<audio src>` cannot send headers, so SSE routes and audio downloads also accept the
 * token as `?token=`: this moves it into the Authorization header (when none was sent) for the usual guards.
 * Request logs redact `token=` values.
 */
export function sseTokenMiddleware(req: Request, _res: Response, next: NextFunction): void {
  const token = req.query.token;
  if (!req.headers.authorization && typeof token === 'string' && token.length > 0 && token.length < 4096) {
    req.headers.authorization = `Bearer ${token}`;
  }
  next();
}
