import { Body, Controller, Get, Ip, Param, Patch, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  AllowUnregistered,
  Auth,
  Public,
  RateLimit,
  RequireConfiguration,
  RequireFreshToken,
} from '../../common/auth/policy.decorators';
import { ok } from '../../common/http/envelope';
import type { AuthContext } from '../../common/http/request-context';
import { AccountManagementService } from './account-management.service';
import { ForgotPasswordDto, NameParamDto, SignupDto, UpdateNameDto } from './dto/account.dto';
import { CAPTCHA_FAILED, UsersService } from './users.service';
import { ApiFailure } from '../../common/http/api-failure.decorator';

@ApiTags('users')
@Controller('users')
export class UsersController {
  constructor(
    private readonly users: UsersService,
    private readonly accounts: AccountManagementService,
  ) {}

  /** The caller's account (spec "User"). */
  @Get()
  @RateLimit('userGet')
  async get(@Auth() auth: AuthContext) {
    return ok('User data retrieved', await this.users.getUser(auth.uid));
  }

  /** Creates the account of the identity-provider user the token names (uid and email come from the token). */
  @Post('signup')
  @AllowUnregistered()
  @RateLimit('userSignup')
  @RequireConfiguration('users.signUp', 'Sign up is temporarily disabled')
  @ApiFailure(409, 'Username unavailable', 'User document already exists', 'Username or email blocked')
  @ApiFailure(422, CAPTCHA_FAILED)
  async signup(@Auth() auth: AuthContext, @Body() body: SignupDto, @Ip() ip: string) {
    await this.users.signup(auth, body, ip);
    return ok('User created');
  }

  /** Whether a name is free (case-insensitively); the caller's own name counts as free. */
  @Get('checkName/:name')
  @Public()
  @RateLimit('userCheckName')
  async checkName(@Auth() auth: AuthContext, @Param() params: NameParamDto) {
    return ok('Check username', { available: await this.users.isNameAvailable(params.name, auth.uid) });
  }

  /** Mails a password-reset link; the answer is the same whether or not the address has an account. */
  @Post('forgotPasswordEmail')
  @Public()
  @RateLimit('userForgotPasswordEmail')
  @ApiFailure(422, CAPTCHA_FAILED)
  async forgotPassword(@Body() body: ForgotPasswordDto, @Ip() ip: string) {
    await this.accounts.requestPasswordReset(body.email, body.captcha, ip);
    return ok('Password reset request received. If the email is valid, you will receive an email shortly.');
  }

  @Patch('name')
  @RequireFreshToken()
  @RateLimit('userUpdateName')
  @ApiFailure(403, 'Banned users cannot change their name')
  @ApiFailure(
    409,
    'Username already taken',
    'You can change your name once every 30 days',
    'Username blocked',
  )
  @ApiFailure(400, 'New name is the same as the old name')
  async rename(@Auth() auth: AuthContext, @Body() body: UpdateNameDto) {
    await this.accounts.rename(auth.uid, body.name);
    return ok("User's name updated");
  }

  @Post('optOutOfLeaderboards')
  @RateLimit('userOptOutOfLeaderboards')
  async optOut(@Auth() auth: AuthContext) {
    await this.accounts.optOutOfLeaderboards(auth.uid);
    return ok('User opted out of leaderboards');
  }
}
