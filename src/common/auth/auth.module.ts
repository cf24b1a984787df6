import { Global, Module } from '@nestjs/common';
import { CacheStatsRegistry } from '../cache-stats';
import { APP_GUARD, Reflector } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import { APP_ENV, type AppEnv } from '../../config/env';
import { REDIS, type Redis } from '../../infra/redis/redis';
import { Clock } from '../clock';
import { RedisThrottlerStorage } from '../rate-limit/redis-throttler.storage';
import { RateLimitGuard, throttlerOptions } from '../rate-limit/rate-limit.guard';
import { AccountRepository } from './account.repository';
import { ApeKeyAuthenticator } from './ape-key-authenticator';
import { AuthenticationService } from './authentication.service';
import { BadAuthService } from './bad-auth.service';
import { FirebaseIdentityProvider } from './firebase.identity-provider';
import { IdentityProvider, NoIdentityProvider } from './identity-provider';
import { OidcIdentityProvider } from './oidc.identity-provider';
import { PolicyGuard } from './policy.guard';
import { TokenVerifierService } from './token-verifier.service';

export function createIdentityProvider(env: AppEnv, clock: Clock): IdentityProvider {
  switch (env.authProvider) {
    case 'firebase':
      return new FirebaseIdentityProvider(
        {
          projectId: env.firebase.projectId as string,
          serviceAccount: env.firebase.serviceAccount,
        },
        () => clock.now(),
      );
    case 'oidc':
      return new OidcIdentityProvider(
        {
          issuer: env.oidc.issuer as string,
          audience: env.oidc.audience as string,
          jwksUrl: env.oidc.jwksUrl as string,
        },
        clock,
      );
    default:
      return new NoIdentityProvider();
  }
}

/** Authentication, authorisation and rate limiting: the global, default-deny policy guard and what it uses. */
@Global()
@Module({
  imports: [
    ThrottlerModule.forRootAsync({
      inject: [APP_ENV, Reflector, REDIS],
      useFactory: (env: AppEnv, reflector: Reflector, redis: Redis) => ({
        ...throttlerOptions(env, reflector),
        storage: new RedisThrottlerStorage(redis),
      }),
    }),
  ],
  providers: [
    { provide: IdentityProvider, inject: [APP_ENV, Clock], useFactory: createIdentityProvider },
    CacheStatsRegistry,
    TokenVerifierService,
    ApeKeyAuthenticator,
    AuthenticationService,
    AccountRepository,
    BadAuthService,
    RateLimitGuard,
    { provide: APP_GUARD, useClass: PolicyGuard },
  ],
  exports: [IdentityProvider, TokenVerifierService, ApeKeyAuthenticator, CacheStatsRegistry],
})
export class AuthModule {}
