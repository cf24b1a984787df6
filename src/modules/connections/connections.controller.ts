import { Body, Controller, Delete, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Auth, RateLimit, RequireConfiguration } from '../../common/auth/policy.decorators';
import { ok } from '../../common/http/envelope';
import type { AuthContext } from '../../common/http/request-context';
import { CONNECTION_MESSAGES } from './connection-rules';
import { ConnectionsService } from './connections.service';
import { ConnectionIdParams } from './dto/connection-id.params';
import { CreateConnectionDto } from './dto/create-connection.dto';
import { ListConnectionsQuery } from './dto/list-connections.query';
import { UpdateConnectionDto } from './dto/update-connection.dto';
import { MESSAGES } from '../../common/app-error';
import { ApiFailure } from '../../common/http/api-failure.decorator';

const asList = <T>(value: T | T[] | undefined): T[] | undefined =>
  value === undefined ? undefined : Array.isArray(value) ? value : [value];

@ApiTags('connections')
@Controller('connections')
@RequireConfiguration('connections.enabled', CONNECTION_MESSAGES.disabled)
export class ConnectionsController {
  constructor(private readonly connections: ConnectionsService) {}

  /** The caller's connections; `type` incoming (caller is receiver) / outgoing (initiator), both when omitted. */
  @Get()
  @RateLimit('connectionGet')
  async list(@Auth() auth: AuthContext, @Query() query: ListConnectionsQuery) {
    const connections = await this.connections.list(auth.uid, {
      statuses: asList(query.status),
      types: asList(query.type),
    });
    return ok('Connections retrieved', connections);
  }

  /** Sends a friend request to the user named `receiverName`. */
  @Post()
  @RateLimit('connectionCreate')
  @ApiFailure(400, CONNECTION_MESSAGES.self)
  @ApiFailure(404, MESSAGES.userNotFound)
  @ApiFailure(
    409,
    CONNECTION_MESSAGES.cap,
    CONNECTION_MESSAGES.alreadySent,
    CONNECTION_MESSAGES.exists,
    CONNECTION_MESSAGES.blocked,
  )
  async create(@Auth() auth: AuthContext, @Body() body: CreateConnectionDto) {
    return ok('Connection created', await this.connections.request(auth.uid, body.receiverName));
  }

  /** The receiver accepts, rejects or blocks a pending request. */
  @Patch(':id')
  @RateLimit('connectionUpdate')
  @ApiFailure(404, CONNECTION_MESSAGES.notFound)
  async update(
    @Auth() auth: AuthContext,
    @Param() params: ConnectionIdParams,
    @Body() body: UpdateConnectionDto,
  ) {
    await this.connections.decide(auth.uid, params.id, body.status);
    return ok('Connection updated');
  }

  /** Cancels, declines, unfriends or unblocks. */
  @Delete(':id')
  @RateLimit('connectionDelete')
  @ApiFailure(404, CONNECTION_MESSAGES.notFound)
  async remove(@Auth() auth: AuthContext, @Param() params: ConnectionIdParams) {
    await this.connections.remove(auth.uid, params.id);
    return ok('Connection deleted');
  }
}
