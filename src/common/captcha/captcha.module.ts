import { Global, Module } from '@nestjs/common';
import { APP_ENV, type AppEnv } from '../../config/env';
import { AlwaysPassCaptchaVerifier, CaptchaVerifier, HttpCaptchaVerifier } from './captcha-verifier';

@Global()
@Module({
  providers: [
    {
      provide: CaptchaVerifier,
      inject: [APP_ENV],
      useFactory: (env: AppEnv): CaptchaVerifier =>
        env.mode === 'dev'
          ? new AlwaysPassCaptchaVerifier()
          : new HttpCaptchaVerifier(env.captcha.verifyUrl, env.captcha.secret),
    },
  ],
  exports: [CaptchaVerifier],
})
export class CaptchaModule {}
