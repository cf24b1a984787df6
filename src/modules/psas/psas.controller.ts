import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Public, RateLimit } from '../../common/auth/policy.decorators';
import { ok } from '../../common/http/envelope';
import { PsasService } from './psas.service';

@ApiTags('psas')
@Controller('psas')
export class PsasController {
  constructor(private readonly psas: PsasService) {}

  /** The current announcements; the original client asks on every page load. */
  @Get()
  @Public()
  @RateLimit('psaGet')
  async list() {
    return ok('PSAs retrieved', await this.psas.list());
  }
}
