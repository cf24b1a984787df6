import { pipeline, type Readable } from 'node:stream';
import { constants, createGzip } from 'node:zlib';
import negotiate from '@fastify/accept-negotiator';
import { Controller, Get, Headers, Res, StreamableFile } from '@nestjs/common';
import { ApiOkResponse, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Auth, RateLimit } from '../../../common/auth/policy.decorators';
import { ApiFailure } from '../../../common/http/api-failure.decorator';
import type { AuthContext } from '../../../common/http/request-context';
import { IDENTITY_UNAVAILABLE } from '../signing/account-file-signing.service';
import { AccountExportService, TOO_MANY_EXPORTS } from './account-export.service';
import { EXPORT_FORMAT, EXPORT_FORMAT_VERSION, EXPORT_MEDIA_TYPE } from './export-format';

/**
 * The fastest level: zlib works on the thread pool beside the page reads, and level 1 compresses a history about
 * fifteen times at twice level 4's speed for 6 % more bytes (measured on the bench account).
 */
const GZIP_LEVEL = 1;

const EXAMPLE =
  `{"format":"${EXPORT_FORMAT}","version":${EXPORT_FORMAT_VERSION},"exportedAt":1767225600000,"uid":"uid123"}\n` +
  '{"type":"account","data":{"uid":"uid123","name":"typist","email":"typist@example.com","addedAt":1735689600000}}\n' +
  '{"type":"result","data":{"id":"6750c0ffee0123456789abcd","timestamp":1767225500000,"wpm":92.4,"acc":97.1}}\n' +
  '{"type":"end","data":{"records":3,"counts":{"account":1,"result":1}}}\n';

/** A file name that needs no quoting rules: the account name's safe characters and the UTC date. */
function exportFileName(name: string, exportedAt: number): string {
  const safe = name.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 32) || 'account';
  return `typing-account-${safe}-${new Date(exportedAt).toISOString().slice(0, 10)}.ndjson`;
}

/** gzip when the client's Accept-Encoding allows it (q > 0, or `*`), else the bytes as they are. */
function wantsGzip(acceptEncoding: string | undefined): boolean {
  if (!acceptEncoding) return false;
  return negotiate(acceptEncoding, ['gzip', 'identity']) === 'gzip';
}

@ApiTags('users')
@Controller('users')
export class ExportController {
  constructor(private readonly exports: AccountExportService) {}

  /** Everything the caller's account holds, as one NDJSON download (docs/data.md). */
  @Get('export')
  @RateLimit('userExport')
  @ApiProduces(EXPORT_MEDIA_TYPE)
  @ApiOkResponse({
    description:
      'NDJSON, not the JSON envelope (`Content-Disposition: attachment`; `Content-Encoding: gzip` when ' +
      'Accept-Encoding allows it): a header line `{format, version, exportedAt, uid}`, then one ' +
      '`{"type", "data"}` line per record (every result, oldest first, without the results cap), then an `end` ' +
      'line with the counts. Read from one consistent snapshot; never holds ApeKey hashes or tokens. A failure ' +
      'after the first byte aborts the connection: a file without its `end` line is incomplete.',
    content: { [EXPORT_MEDIA_TYPE]: { schema: { type: 'string' }, example: EXAMPLE } },
  })
  @ApiFailure(503, TOO_MANY_EXPORTS, IDENTITY_UNAVAILABLE)
  async export(
    @Auth() auth: AuthContext,
    @Headers('accept-encoding') acceptEncoding: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<StreamableFile> {
    const opened = await this.exports.open(auth.uid);
    let body: Readable = opened.stream;
    if (wantsGzip(acceptEncoding)) {
      const gzip = createGzip({ level: GZIP_LEVEL, flush: constants.Z_NO_FLUSH });
      // Either side failing or closing early ends the other: the snapshot closes with the response.
      body = pipeline(opened.stream, gzip, () => undefined);
      // The header and the account go out at once (first byte), not when zlib's first block fills up.
      opened.stream.once('data', () => setImmediate(() => gzip.flush()));
      void reply.header('Content-Encoding', 'gzip');
    }
    void reply.header('Vary', 'Accept-Encoding');
    void reply.header('Cache-Control', 'no-store');
    return new StreamableFile(body, {
      type: `${EXPORT_MEDIA_TYPE}; charset=utf-8`,
      disposition: `attachment; filename="${exportFileName(opened.name, opened.exportedAt)}"`,
    });
  }
}
