import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import type { SessionAuth } from '../../common/auth/auth-context';
import { Clock } from '../../common/clock';
import { PasswordHasher } from '../../common/crypto/password-hasher';
import { randomBase62, SECRET_LENGTH, sha256Hex } from '../../common/crypto/secrets';
import { DomainError } from '../../common/errors/domain-error';
import { newId } from '../../common/ids';
import { DatabaseService, Executor } from '../../database/database.service';
import type { MerchantsTable, StoresTable } from '../../database/database.types';
import { StoresRepository } from '../stores/stores.repository';
import { AccountsService } from './accounts.service';
import type {
  LoginDto,
  LoginResultView,
  MerchantView,
  MeView,
  RegisterDto,
  RegisterResultView,
  SessionView,
  StoreSummaryView,
} from './dto/auth.dto';
import { LoginLimiter } from './login-limiter';
import { MerchantsRepository } from './merchants.repository';
import { SessionsRepository } from './sessions.repository';

const invalidCredentials = () => new DomainError('INVALID_CREDENTIALS', 'Email or password is incorrect');

/** Merchant accounts and sessions (API.md §3). */
@Injectable()
export class AuthService {
  constructor(
    private readonly database: DatabaseService,
    private readonly accounts: AccountsService,
    private readonly merchants: MerchantsRepository,
    private readonly stores: StoresRepository,
    private readonly sessions: SessionsRepository,
    private readonly passwords: PasswordHasher,
    private readonly loginLimiter: LoginLimiter,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async register(input: RegisterDto): Promise<RegisterResultView> {
    if (await this.merchants.findByEmail(input.email)) throw new DomainError('CONFLICT', 'An account with this email already exists');
    const passwordHash = await this.passwords.hash(input.password);
    return this.database.transaction(async (trx) => {
      const { merchant, store, apiKey } = await this.accounts.open(
        { name: input.name, email: input.email, passwordHash, storeName: input.storeName ?? `${input.name}'s store` },
        trx,
      );
      const session = await this.startSession(merchant.id, trx);
      return { merchant: presentMerchant(merchant), store: presentStore(store), session, apiKey };
    });
  }

  async login(input: LoginDto, clientIp: string): Promise<LoginResultView> {
    await this.loginLimiter.countAttempt(clientIp, input.email);
    const merchant = await this.merchants.findByEmail(input.email);
    if (!merchant || merchant.password_hash === null) {
      await this.passwords.burn(input.password);
      throw invalidCredentials();
    }
    if (!(await this.passwords.verify(input.password, merchant.password_hash))) throw invalidCredentials();
    return { merchant: presentMerchant(merchant), session: await this.startSession(merchant.id) };
  }

  async logout(auth: SessionAuth): Promise<{ loggedOut: true }> {
    await this.sessions.revoke(auth.merchantId, auth.sessionId, this.clock.nowIso());
    return { loggedOut: true };
  }

  async me(auth: SessionAuth): Promise<MeView> {
    const [merchant, store] = await Promise.all([
      this.merchants.findById(auth.merchantId),
      this.stores.findById(auth.storeId),
    ]);
    if (!merchant || !store) throw new DomainError('INTERNAL', 'Session points at a missing account');
    return { merchant: presentMerchant(merchant), store: presentStore(store) };
  }

  /** Resolves a presented session token for the auth guard; null when unknown, ended or expired. */
  async authenticate(token: string): Promise<SessionAuth | null> {
    const session = await this.sessions.findActiveByTokenHash(sha256Hex(token), this.clock.nowIso());
    if (!session) return null;
    return { kind: 'session', merchantId: session.merchant_id, storeId: session.store_id, sessionId: session.id };
  }

  private async startSession(merchantId: string, executor?: Executor): Promise<SessionView> {
    const token = `sess_${randomBase62(SECRET_LENGTH)}`;
    const expiresAt = this.clock.isoIn(this.config.sessionTtlHours * 3_600_000);
    await this.sessions.insert(
      {
        id: newId('ses'),
        merchant_id: merchantId,
        token_hash: sha256Hex(token),
        created_at: this.clock.nowIso(),
        expires_at: expiresAt,
        revoked_at: null,
      },
      executor,
    );
    return { token, expiresAt };
  }
}

function presentMerchant(row: MerchantsTable): MerchantView {
  return { id: row.id, name: row.name, email: row.email, createdAt: row.created_at };
}

function presentStore(row: StoresTable): StoreSummaryView {
  return { id: row.id, name: row.name, createdAt: row.created_at };
}
