import { Body, Controller, Get, Logger, Module, Post, Query } from '@nestjs/common';
import { IsIn, IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import {
  AcceptsApeKey,
  Auth,
  NoTokenCache,
  Public,
  RateLimit,
  RequireConfiguration,
  RequireFreshToken,
  RequirePermission,
  RequirePremium,
} from '../../src/common/auth/policy.decorators';
import type { AuthContext } from '../../src/common/http/request-context';
import { ok } from '../../src/common/http/envelope';
import { ToNumber } from '../../src/common/validation/transforms';

class ProbeBodyDto {
  @IsString()
  @Length(1, 16)
  name!: string;

  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(10)
  count?: number;
}

class ProbeQueryDto {
  @IsOptional()
  @ToNumber()
  @IsInt()
  @Min(0)
  page?: number;

  @IsOptional()
  @IsIn(['time', 'words'])
  mode?: string;
}

/** Routes with one policy each, so the guard's behaviour is tested apart from any feature. */
@Controller('probe')
class ProbeController {
  @Get('bearer')
  bearer(@Auth() auth: AuthContext) {
    return ok('probe', auth);
  }

  @Get('public')
  @Public()
  public(@Auth() auth: AuthContext) {
    return ok('probe', auth);
  }

  @Get('ape')
  @AcceptsApeKey()
  ape(@Auth() auth: AuthContext) {
    return ok('probe', auth);
  }

  @Post('fresh')
  @RequireFreshToken()
  fresh(@Auth() auth: AuthContext) {
    return ok('probe', auth);
  }

  @Get('uncached')
  @NoTokenCache()
  uncached(@Auth() auth: AuthContext) {
    return ok('probe', auth);
  }

  @Get('admin')
  @RequirePermission('admin')
  admin() {
    return ok('probe');
  }

  @Get('premium')
  @RequirePremium()
  premium() {
    return ok('probe');
  }

  /** Every check at once, to prove their order. */
  @Post('ordered')
  @RateLimit('adminLimit')
  @RequireConfiguration('results.savingEnabled', 'Results are not being saved at this time.')
  @RequirePermission('quoteMod')
  ordered(@Body() body: ProbeBodyDto) {
    return ok('probe', body);
  }

  @Get('query')
  @Public()
  query(@Query() query: ProbeQueryDto) {
    return ok('probe', query);
  }

  /** A line written by the handler after an await, as a service's warning is. */
  @Get('logs')
  @Public()
  async logs() {
    await new Promise((resolve) => setImmediate(resolve));
    new Logger('Probe').warn('written inside a handler');
    return ok('probe', null);
  }

  @Get('boom')
  @Public()
  boom(): never {
    throw new Error('kaboom with a secret stack');
  }
}

@Module({ controllers: [ProbeController] })
export class ProbeModule {}
