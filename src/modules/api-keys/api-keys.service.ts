import { Injectable } from '@nestjs/common';
import type { ApiKeyAuth, AuthContext } from '../../common/auth/auth-context';
import { Grant, parsePermissions } from '../../common/auth/permissions';
import { Clock } from '../../common/clock';
import { randomBase62, SECRET_LENGTH, sha256Hex } from '../../common/crypto/secrets';
import { newId } from '../../common/ids';
import { Page, toPage, toPageRequest } from '../../common/pagination/pagination';
import { DatabaseService, Executor } from '../../database/database.service';
import type { ApiKeysTable, Mode } from '../../database/database.types';
import {
  apiKeyNotActive,
  apiKeyNotFound,
  expiresAtInPast,
  invalidPermissions,
  otherModeForbidden,
} from './api-keys.errors';
import { ApiKeysRepository, KeyOwnerScope } from './api-keys.repository';
import { presentApiKey } from './api-key.presenter';
import type {
  ApiKeyView,
  ApiKeyWithSecretView,
  CreateApiKeyDto,
  ListApiKeysQueryDto,
  RollApiKeyDto,
  UpdateApiKeyDto,
} from './dto/api-key.dto';

const LAST_USED_RESOLUTION_MS = 60_000;

export interface KeySpec {
  name: string;
  mode: Mode;
  grants: Grant[];
  expiresAt: string | null;
}

@Injectable()
export class ApiKeysService {
  constructor(
    private readonly keys: ApiKeysRepository,
    private readonly database: DatabaseService,
    private readonly clock: Clock,
  ) {}

  /** Creates a key and returns it with its secret: the only moment the full value exists outside the caller. */
  async issue(
    owner: { merchantId: string; storeId: string },
    spec: KeySpec,
    executor: Executor = this.database.db,
    secret: string = `sk_${spec.mode}_${randomBase62(SECRET_LENGTH)}`,
  ): Promise<ApiKeyWithSecretView> {
    const random = secret.slice(`sk_${spec.mode}_`.length);
    const row: ApiKeysTable = {
      id: newId('key'),
      merchant_id: owner.merchantId,
      store_id: owner.storeId,
      mode: spec.mode,
      name: spec.name,
      permissions: JSON.stringify(spec.grants),
      key_hash: sha256Hex(secret),
      prefix: `sk_${spec.mode}_${random.slice(0, 4)}`,
      last4: random.slice(-4),
      created_at: this.clock.nowIso(),
      last_used_at: null,
      expires_at: spec.expiresAt,
      revoked_at: null,
    };
    await this.keys.insert(row, executor);
    return { ...presentApiKey(row), key: secret };
  }

  /** Resolves a presented key for the auth guard; null when unknown, revoked or expired. */
  async authenticate(secret: string): Promise<ApiKeyAuth | null> {
    const row = await this.keys.findByKeyHash(sha256Hex(secret));
    if (!row || !this.isActive(row)) return null;
    const now = this.clock.now();
    const staleBefore = new Date(now.getTime() - LAST_USED_RESOLUTION_MS).toISOString();
    if (row.last_used_at === null || row.last_used_at < staleBefore) {
      await this.keys.touchLastUsed(row.id, now.toISOString(), staleBefore);
    }
    return {
      kind: 'api-key',
      merchantId: row.merchant_id,
      storeId: row.store_id,
      mode: row.mode,
      keyId: row.id,
      grants: JSON.parse(row.permissions) as Grant[],
    };
  }

  async create(actor: AuthContext, input: CreateApiKeyDto): Promise<ApiKeyWithSecretView> {
    const mode = input.mode ?? 'test';
    if (actor.kind === 'api-key' && actor.mode !== mode) throw otherModeForbidden(actor.mode);
    const expiresAt = this.futureOrNull(input.expiresAt);
    return this.issue(actor, { name: input.name, mode, grants: grantsOf(input.permissions), expiresAt });
  }

  async list(actor: AuthContext, query: ListApiKeysQueryDto): Promise<Page<ApiKeyView>> {
    const page = toPageRequest(query);
    const rows = await this.keys.listPage(ownerOf(actor), page, query.mode);
    return toPage(rows, page, presentApiKey);
  }

  async get(actor: AuthContext, id: string): Promise<ApiKeyView> {
    return presentApiKey(await this.find(ownerOf(actor), id));
  }

  async update(actor: AuthContext, input: UpdateApiKeyDto): Promise<ApiKeyView> {
    const owner = ownerOf(actor);
    await this.find(owner, input.id);
    const patch: { name?: string; permissions?: string } = {};
    if (input.name !== undefined) patch.name = input.name;
    if (input.permissions !== undefined) patch.permissions = JSON.stringify(grantsOf(input.permissions));
    if (Object.keys(patch).length > 0) await this.keys.update(owner, input.id, patch);
    return this.get(actor, input.id);
  }

  /** Revoking is idempotent: a revoked key is returned as it is. */
  async revoke(actor: AuthContext, id: string): Promise<ApiKeyView> {
    const owner = ownerOf(actor);
    const row = await this.find(owner, id);
    if (row.revoked_at === null) await this.keys.update(owner, id, { revoked_at: this.clock.nowIso() });
    return this.get(actor, id);
  }

  /**
   * Replaces a key with a new secret of the same name, mode and permissions. The old key keeps working
   * for the grace period (never longer than it would have anyway); 0 stops it at once.
   */
  async roll(actor: AuthContext, input: RollApiKeyDto): Promise<ApiKeyWithSecretView> {
    const owner = ownerOf(actor);
    return this.database.transaction(async (trx) => {
      const old = await this.keys.findById(owner, input.id, trx);
      if (!old) throw apiKeyNotFound();
      if (!this.isActive(old)) throw apiKeyNotActive();
      const graceSeconds = input.expiresInSeconds ?? 0;
      const now = this.clock.nowIso();
      if (graceSeconds === 0) {
        await this.keys.update(owner, old.id, { revoked_at: now }, trx);
      } else {
        const graceEnd = this.clock.isoIn(graceSeconds * 1000);
        const expiresAt = old.expires_at !== null && old.expires_at < graceEnd ? old.expires_at : graceEnd;
        await this.keys.update(owner, old.id, { expires_at: expiresAt }, trx);
      }
      return this.issue(
        { merchantId: old.merchant_id, storeId: old.store_id },
        { name: old.name, mode: old.mode, grants: JSON.parse(old.permissions) as Grant[], expiresAt: null },
        trx,
      );
    });
  }

  private async find(owner: KeyOwnerScope, id: string): Promise<ApiKeysTable> {
    const row = await this.keys.findById(owner, id);
    if (!row) throw apiKeyNotFound();
    return row;
  }

  private isActive(row: ApiKeysTable): boolean {
    return row.revoked_at === null && (row.expires_at === null || row.expires_at > this.clock.nowIso());
  }

  private futureOrNull(expiresAt: string | undefined): string | null {
    if (expiresAt === undefined) return null;
    const at = new Date(expiresAt);
    if (at.getTime() <= this.clock.now().getTime()) throw expiresAtInPast();
    return at.toISOString();
  }
}

function grantsOf(requested: string[]): Grant[] {
  const parsed = parsePermissions(requested);
  if (!parsed.ok) throw invalidPermissions(parsed.problem);
  return parsed.grants;
}

/** Sessions manage every key of their store; a `*` key only those of its own mode. */
function ownerOf(actor: AuthContext): KeyOwnerScope {
  return { storeId: actor.storeId, mode: actor.kind === 'api-key' ? actor.mode : null };
}
