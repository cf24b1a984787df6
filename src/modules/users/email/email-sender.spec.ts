import { createServer, type Server, type Socket } from 'node:net';
import { Logger } from '@nestjs/common';
import { LoggingEmailSender, SmtpEmailSender } from './email-sender';

// Counts the loads of nodemailer; the module itself is the real one.
const mockLoads: string[] = [];
jest.mock('nodemailer', () => {
  mockLoads.push('nodemailer');
  return jest.requireActual('nodemailer') as unknown;
});

/** The least of an SMTP relay: greets, accepts one sender, its recipients and the message, and records them. */
interface Received {
  from: string[];
  to: string[];
  data: string;
}

function smtpStub(received: Received[]): Server {
  return createServer((socket: Socket) => {
    let buffer = '';
    let inData = false;
    let current: Received = { from: [], to: [], data: '' };
    socket.setEncoding('utf8');
    socket.write('220 stub.test ESMTP\r\n');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end === -1) return;
          current.data = buffer.slice(0, end);
          buffer = buffer.slice(end + 5);
          inData = false;
          received.push(current);
          current = { from: [], to: [], data: '' };
          socket.write('250 queued\r\n');
          continue;
        }
        const eol = buffer.indexOf('\r\n');
        if (eol === -1) return;
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') socket.write('250 stub.test\r\n');
        else if (verb === 'MAIL' || verb === 'RCPT') {
          (verb === 'MAIL' ? current.from : current.to).push(line);
          socket.write('250 ok\r\n');
        } else if (verb === 'DATA') {
          inData = true;
          socket.write('354 go on\r\n');
        } else if (verb === 'QUIT') socket.end('221 bye\r\n');
        else socket.write('250 ok\r\n');
      }
    });
  });
}

// The senders log each mail they handle; not in the test output.
beforeAll(() => Logger.overrideLogger(false));

describe('email senders', () => {
  const received: Received[] = [];
  let server: Server;
  let port: number;

  beforeAll(async () => {
    server = smtpStub(received);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('the logging sender does not load nodemailer', async () => {
    await new LoggingEmailSender(false).send({ to: 'a@example.test', subject: 's', text: 't' });
    expect(mockLoads).toEqual([]);
  });

  it('the SMTP sender loads nodemailer and hands the mail to the relay named by its URL', async () => {
    const sender = new SmtpEmailSender(`smtp://127.0.0.1:${port}`, 'Typing <noreply@example.test>');
    expect(mockLoads).toEqual(['nodemailer']);
    await sender.send({ to: 'user@example.test', subject: 'Reset your password', text: 'Follow this link.' });
    expect(received).toHaveLength(1);
    expect(received[0]?.from).toEqual(['MAIL FROM:<noreply@example.test>']);
    expect(received[0]?.to).toEqual(['RCPT TO:<user@example.test>']);
    expect(received[0]?.data).toContain('Subject: Reset your password');
    expect(received[0]?.data).toContain('Follow this link.');
  });

  it('the SMTP sender fails when the relay cannot be reached', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadPort = (closed.address() as { port: number }).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const sender = new SmtpEmailSender(`smtp://127.0.0.1:${deadPort}`, 'noreply@example.test');
    await expect(sender.send({ to: 'user@example.test', subject: 's', text: 't' })).rejects.toThrow();
  });
});
