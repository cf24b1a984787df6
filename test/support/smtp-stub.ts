import { SMTPServer } from 'smtp-server';
import { openedByTest } from './file-resources';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The raw message (headers and body) as received. */
  raw: string;
}

export interface SmtpStub {
  /** `smtp://127.0.0.1:<port>`, for SMTP_URL. */
  url: string;
  mails: ReceivedMail[];
  /** Resolves once `count` mails arrived (rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

/** A local SMTP relay standing in for the real one: accepts every mail (no TLS, no auth) and keeps it. */
export async function startSmtpStub(): Promise<SmtpStub> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const stop = () => new Promise<void>((resolve) => server.close(() => resolve()));
  const closed = openedByTest('SMTP stub (startSmtpStub)', stop);
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    async waitFor(count, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (mails.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} mail(s), got ${mails.length}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return mails;
    },
    close: () => {
      closed();
      return stop();
    },
  };
}
