import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'chorus:isPublic';

/** Marks a route reachable without the bearer token (only `GET /health`, per SPEC §5). */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(IS_PUBLIC, true);
