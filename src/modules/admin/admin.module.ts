import { Module } from '@nestjs/common';
import { QuotesModule } from '../quotes/quotes.module';
import { UsersModule } from '../users/users.module';
import { AdminController } from './admin.controller';
import { AdminRepository } from './admin.repository';
import { AdminService } from './admin.service';

/** Shares AdminService between the `/admin/*` routes and the operator CLI. */
@Module({
  imports: [QuotesModule, UsersModule],
  controllers: [AdminController],
  providers: [AdminRepository, AdminService],
  exports: [AdminService],
})
export class AdminModule {}
