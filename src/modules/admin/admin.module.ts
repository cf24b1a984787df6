import { Module } from '@nestjs/common';
import { AdminRepository } from './admin.repository';
import { AdminService } from './admin.service';

/** AdminService for the operator CLI and the `/admin/*` routes (AdminApiModule); it stands on the stores alone. */
@Module({
  providers: [AdminRepository, AdminService],
  exports: [AdminService],
})
export class AdminModule {}
