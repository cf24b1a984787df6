import { Logger } from '@nestjs/common';

/** Checks a captcha token from the client with the captcha provider. */
export abstract class CaptchaVerifier {
  abstract verify(token: string, remoteIp?: string): Promise<boolean>;
}

/** `MODE=dev`: every captcha passes. */
export class AlwaysPassCaptchaVerifier extends CaptchaVerifier {
  verify(): Promise<boolean> {
    return Promise.resolve(true);
  }
}

/**
 * A reCAPTCHA / hCaptcha / Turnstile compatible verify endpoint: form POST of `secret`, `response`, `remoteip`,
 * answer `{ "success": boolean }`. Fails closed: no secret, a network error or a non-2xx answer all mean "not
 * verified".
 */
export class HttpCaptchaVerifier extends CaptchaVerifier {
  private readonly logger = new Logger(HttpCaptchaVerifier.name);

  constructor(
    private readonly verifyUrl: string,
    private readonly secret: string | undefined,
    private readonly timeoutMs = 5000,
  ) {
    super();
    if (!secret) this.logger.warn('CAPTCHA_SECRET is not set: every captcha will be refused');
  }

  async verify(token: string, remoteIp?: string): Promise<boolean> {
    if (!this.secret || token.length === 0) return false;
    const form = new URLSearchParams({ secret: this.secret, response: token });
    if (remoteIp) form.set('remoteip', remoteIp);
    try {
      const response = await fetch(this.verifyUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      if (!response.ok) {
        this.logger.warn({ status: response.status }, 'captcha provider answered with an error');
        return false;
      }
      const body = (await response.json()) as { success?: unknown };
      return body.success === true;
    } catch (e) {
      this.logger.warn({ err: (e as Error).message }, 'captcha provider unreachable');
      return false;
    }
  }
}
