import { ApiProperty } from '@nestjs/swagger';

import type { TranscribeResult } from '../../contract/worker-api';

export class TranscribeResponseDto implements TranscribeResult {
  @ApiProperty({ description: 'The recognised text', example: 'go forward ten meters' })
  text!: string;

  @ApiProperty({ description: 'Spoken language (detected or requested), ISO 639-1', example: 'en' })
  language!: string;

  @ApiProperty({ description: 'Seconds of audio recognised', example: 2.786 })
  duration!: number;

  @ApiProperty({ description: 'Backend that recognised it', example: 'pocketsphinx' })
  backend!: string;

  @ApiProperty({
    description: 'Model used: `<backend>/<variant>`, or the backend name for embedded engines',
    example: 'pocketsphinx',
  })
  model_path!: string;
}
