import { Module } from '@nestjs/common';
import { PasswordHasher } from '../../common/crypto/password-hasher';
import { ApiKeysModule } from '../api-keys/api-keys.module';
import { LedgerModule } from '../ledger/ledger.module';
import { StoresModule } from '../stores/stores.module';
import { AccountsService } from './accounts.service';
import { AuthController } from './auth.controller';
import { AuthService } from './auth.service';
import { DefaultAccountService } from './default-account.service';
import { LoginLimiter } from './login-limiter';
import { MerchantsRepository } from './merchants.repository';
import { SessionsRepository } from './sessions.repository';

@Module({
  imports: [ApiKeysModule, StoresModule, LedgerModule],
  controllers: [AuthController],
  providers: [
    AuthService,
    AccountsService,
    DefaultAccountService,
    MerchantsRepository,
    SessionsRepository,
    PasswordHasher,
    LoginLimiter,
  ],
  exports: [AuthService],
})
export class AuthModule {}
