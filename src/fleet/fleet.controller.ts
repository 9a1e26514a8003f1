import {
  Body,
  Controller,
  Delete,
  Get,
  Headers,
  HttpCode,
  Param,
  Patch,
  Post,
  UseGuards,
} from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { ApiErrorDto } from '../common/errors/api-error';
import type { AuthContext } from '../records/auth/auth-context';
import { AdminGuard, CurrentAuth } from '../records/auth/auth.guards';
import {
  InferenceServerDto,
  RegisterWorkerDto,
  RegisteredWorkerDto,
  RegistrationTokenDto,
  UpdateInferenceServerDto,
} from './dto/inference-server.dto';
import { RegistrationService } from './registration.service';

@ApiTags('fleet')
@ApiBearerAuth()
@ApiUnauthorizedResponse({ type: ApiErrorDto })
@Controller('inference-servers')
export class FleetController {
  constructor(private readonly service: RegistrationService) {}

  /** Every inference server with its last health state (admins). */
  @Get()
  @UseGuards(AdminGuard)
  @ApiOkResponse({ type: [InferenceServerDto] })
  @ApiForbiddenResponse({ type: ApiErrorDto })
  listInferenceServers(): Promise<InferenceServerDto[]> {
    return this.service.list();
  }

  /** A one-hour token that lets a worker register itself (admins). */
  @Post('registration-tokens')
  @UseGuards(AdminGuard)
  @ApiCreatedResponse({ type: RegistrationTokenDto })
  @ApiForbiddenResponse({ type: ApiErrorDto })
  createRegistrationToken(@CurrentAuth() auth: AuthContext): Promise<RegistrationTokenDto> {
    return this.service.createToken(auth);
  }

  /**
   * Called by a worker at start-up with `Authorization: Bearer <registration token>`: upserts the entry by URL
   * (repeated or concurrent calls never duplicate it), then probes the worker.
   */
  @Post('register')
  @HttpCode(200)
  @ApiOkResponse({ type: RegisteredWorkerDto })
  registerInferenceServer(
    @Headers('authorization') authorization: string | undefined,
    @Body() dto: RegisterWorkerDto,
  ): Promise<RegisteredWorkerDto> {
    return this.service.register(authorization, dto);
  }

  @Patch(':id')
  @UseGuards(AdminGuard)
  @ApiOkResponse({ type: InferenceServerDto })
  @ApiNotFoundResponse({ type: ApiErrorDto })
  updateInferenceServer(
    @Param('id') id: string,
    @Body() dto: UpdateInferenceServerDto,
  ): Promise<InferenceServerDto> {
    return this.service.update(id, dto);
  }

  @Delete(':id')
  @UseGuards(AdminGuard)
  @HttpCode(204)
  @ApiNoContentResponse()
  @ApiNotFoundResponse({ type: ApiErrorDto })
  deleteInferenceServer(@Param('id') id: string): Promise<void> {
    return this.service.remove(id);
  }

  /** Probes the fleet now and returns this server's fresh state. */
  @Post(':id/check')
  @HttpCode(200)
  @UseGuards(AdminGuard)
  @ApiOkResponse({ type: InferenceServerDto })
  @ApiNotFoundResponse({ type: ApiErrorDto })
  checkInferenceServer(@Param('id') id: string): Promise<InferenceServerDto> {
    return this.service.check(id);
  }
}
