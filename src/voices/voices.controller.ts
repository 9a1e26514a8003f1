import {
  applyDecorators,
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Post,
  Put,
  Query,
  Req,
  UseGuards,
  UseInterceptors,
} from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiBody,
  ApiConsumes,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiPayloadTooLargeResponse,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { Request } from 'express';
import { ApiErrorDto } from '../common/errors/api-error';
import { ownerId } from '../common/records/owner';
import { MultipartUpload, uploadedFile } from '../common/uploads/multipart-upload.interceptor';
import type { AuthContext } from '../records/auth/auth-context';
import { AuthGuard, CurrentAuth } from '../records/auth/auth.guards';
import {
  AddVoiceSampleDto,
  AddVoiceSampleFormDto,
  CreateVoiceDto,
  CreateVoiceFormDto,
  ListVoicesQueryDto,
  UpdateVoiceDto,
  UpdateVoiceFormDto,
} from './dto/voice-input.dto';
import { VoiceDto, VoiceListDto, VoiceSampleDto } from './dto/voice.dto';
import { AVATAR_MAX_BYTES, SAMPLE_MAX_BYTES } from './voices.collection';
import { VoicesService } from './voices.service';

/** Voices and their samples. Every route needs a signed-in user; public voices are readable by all users. */
@ApiTags('voices')
@ApiBearerAuth()
@ApiUnauthorizedResponse({ type: ApiErrorDto, description: 'Not signed in.' })
@Controller('voices')
@UseGuards(AuthGuard)
export class VoicesController {
  constructor(private readonly voices: VoicesService) {}

  /** The caller's voices and public ones, newest first, filtered and paginated. */
  @Get()
  @ApiOkResponse({ type: VoiceListDto })
  @ApiBadRequestError()
  listVoices(@CurrentAuth() auth: AuthContext, @Query() query: ListVoicesQueryDto): Promise<VoiceListDto> {
    return this.voices.list(ownerId(auth), query);
  }

  /** Creates a voice on a catalog model (multipart, for the avatar image). */
  @Post()
  @UseInterceptors(MultipartUpload({ name: 'avatar', maxBytes: AVATAR_MAX_BYTES }))
  @ApiConsumes('multipart/form-data')
  @ApiBody({ type: CreateVoiceFormDto })
  @ApiCreatedResponse({ type: VoiceDto })
  @ApiBadRequestError()
  @ApiPayloadTooLargeResponse({ type: ApiErrorDto, description: 'The avatar is larger than 5 MB.' })
  createVoice(
    @CurrentAuth() auth: AuthContext,
    @Body() dto: CreateVoiceDto,
    @Req() request: Request,
  ): Promise<VoiceDto> {
    return this.voices.create(ownerId(auth), dto, uploadedFile(request, 'avatar'));
  }

  @Get(':id')
  @ApiOkResponse({ type: VoiceDto })
  @ApiNotFoundResponse({ type: ApiErrorDto })
  getVoice(@CurrentAuth() auth: AuthContext, @Param('id') id: string): Promise<VoiceDto> {
    return this.voices.get(ownerId(auth), id);
  }

  /** Changes some fields of an own voice (multipart with an avatar, or JSON). */
  @Put(':id')
  @UseInterceptors(MultipartUpload({ name: 'avatar', maxBytes: AVATAR_MAX_BYTES }))
  @ApiConsumes('multipart/form-data')
  @ApiBody({
    type: UpdateVoiceFormDto,
    description:
      'Only the fields sent change. A JSON body with the same fields (options as an object) is accepted too. ' +
      'An empty tags value clears the tags.',
  })
  @ApiOkResponse({ type: VoiceDto })
  @ApiBadRequestError()
  @ApiOwnerOnly()
  @ApiPayloadTooLargeResponse({ type: ApiErrorDto, description: 'The avatar is larger than 5 MB.' })
  updateVoice(
    @CurrentAuth() auth: AuthContext,
    @Param('id') id: string,
    @Body() dto: UpdateVoiceDto,
    @Req() request: Request,
  ): Promise<VoiceDto> {
    return this.voices.update(ownerId(auth), id, dto, uploadedFile(request, 'avatar'));
  }

  /** Deletes an own voice with its samples and files (history entries made with it stay). */
  @Delete(':id')
  @HttpCode(204)
  @ApiNoContentResponse()
  @ApiOwnerOnly()
  deleteVoice(@CurrentAuth() auth: AuthContext, @Param('id') id: string): Promise<void> {
    return this.voices.delete(ownerId(auth), id);
  }

  /** Adds a reference recording to an own cloning voice: decoded, measured, checked against the model's limit. */
  @Post(':id/samples')
  @UseInterceptors(MultipartUpload({ name: 'audio', maxBytes: SAMPLE_MAX_BYTES }))
  @ApiConsumes('multipart/form-data')
  @ApiBody({ type: AddVoiceSampleFormDto })
  @ApiCreatedResponse({ type: VoiceSampleDto })
  @ApiBadRequestError()
  @ApiOwnerOnly()
  @ApiPayloadTooLargeResponse({ type: ApiErrorDto, description: 'The recording is larger than 20 MB.' })
  addVoiceSample(
    @CurrentAuth() auth: AuthContext,
    @Param('id') id: string,
    @Body() dto: AddVoiceSampleDto,
    @Req() request: Request,
  ): Promise<VoiceSampleDto> {
    return this.voices.addSample(ownerId(auth), id, dto, uploadedFile(request, 'audio'));
  }

  @Delete(':id/samples/:sid')
  @HttpCode(204)
  @ApiNoContentResponse()
  @ApiOwnerOnly()
  deleteVoiceSample(
    @CurrentAuth() auth: AuthContext,
    @Param('id') id: string,
    @Param('sid') sampleId: string,
  ): Promise<void> {
    return this.voices.deleteSample(ownerId(auth), id, sampleId);
  }
}

function ApiBadRequestError(): MethodDecorator {
  return ApiBadRequestResponse({ type: ApiErrorDto, description: 'Invalid input (see data).' });
}

function ApiOwnerOnly(): MethodDecorator {
  return applyDecorators(
    ApiForbiddenResponse({ type: ApiErrorDto, description: "Someone else's public voice." }),
    ApiNotFoundResponse({ type: ApiErrorDto, description: 'No such voice (or not visible to you).' }),
  );
}
