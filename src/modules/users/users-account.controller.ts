import { Body, Controller, Delete, Patch, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Auth, RateLimit, RequireFreshToken } from '../../common/auth/policy.decorators';
import { ok } from '../../common/http/envelope';
import type { AuthContext } from '../../common/http/request-context';
import { AccountManagementService } from './account-management.service';
import { UpdateEmailDto, UpdatePasswordDto } from './dto/account.dto';
import { ApiFailure } from '../../common/http/api-failure.decorator';

/** Account lifecycle (docs/decisions/0028-account-lifecycle-routes.md): fresh token only, never an ApeKey. */
@ApiTags('users')
@Controller('users')
@RequireFreshToken()
export class UsersAccountController {
  constructor(private readonly accounts: AccountManagementService) {}

  /** Deletes the account, every row it owns and the identity-provider account. */
  @Delete()
  @RateLimit('userDelete')
  async delete(@Auth() auth: AuthContext) {
    await this.accounts.deleteAccount(auth.uid);
    return ok('User deleted');
  }

  @Patch('reset')
  @RateLimit('userReset')
  @ApiFailure(403, 'Banned users cannot reset their account')
  async reset(@Auth() auth: AuthContext) {
    await this.accounts.resetAccount(auth.uid);
    return ok('User reset');
  }

  @Patch('email')
  @RateLimit('userUpdateEmail')
  @ApiFailure(409, 'The email address is already in use by another account')
  @ApiFailure(400, 'Invalid email address')
  @ApiFailure(404, 'User not found in the auth system')
  @ApiFailure(429, 'Too many requests. Please try again later')
  async updateEmail(@Auth() auth: AuthContext, @Body() body: UpdateEmailDto) {
    await this.accounts.updateEmail(auth.uid, body.newEmail);
    return ok('Email updated');
  }

  @Patch('password')
  @RateLimit('userUpdateEmail')
  async updatePassword(@Auth() auth: AuthContext, @Body() body: UpdatePasswordDto) {
    await this.accounts.updatePassword(auth.uid, body.newPassword);
    return ok('Password updated');
  }

  @Post('revokeAllTokens')
  @RateLimit('userRevokeAllTokens')
  async revokeAllTokens(@Auth() auth: AuthContext) {
    await this.accounts.revokeAllTokens(auth.uid);
    return ok('All tokens revoked');
  }
}
