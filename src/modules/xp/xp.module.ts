import { Module } from '@nestjs/common';
import { XpService } from './xp.service';

/** XP rules (spec "Rules for XP"); results ask it what a submission earns. */
@Module({ providers: [XpService], exports: [XpService] })
export class XpModule {}
