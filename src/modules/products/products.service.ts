import { Injectable } from '@nestjs/common';
import type { Scope } from '../../common/auth/auth-context';
import { Clock } from '../../common/clock';
import { newId } from '../../common/ids';
import { Page, toPage, toPageRequest } from '../../common/pagination/pagination';
import { Executor, isUniqueViolation } from '../../database/database.service';
import type { ProductsTable } from '../../database/database.types';
import type {
  CreateProductDto,
  GetProductQueryDto,
  ListProductsQueryDto,
  ProductView,
  UpdateProductDto,
} from './dto/product.dto';
import { externalIdTaken, productNotFound, trialNeedsCycle } from './products.errors';
import { ProductPatch, ProductsRepository } from './products.repository';
import { presentProduct } from './product.presenter';

@Injectable()
export class ProductsService {
  constructor(
    private readonly products: ProductsRepository,
    private readonly clock: Clock,
  ) {}

  async create(scope: Scope, input: CreateProductDto): Promise<ProductView> {
    const cycle = input.cycle ?? null;
    const trialDays = input.trialDays ?? null;
    if (trialDays !== null && cycle === null) throw trialNeedsCycle();
    const now = this.clock.nowIso();
    const row: ProductsTable = {
      id: newId('prod'),
      store_id: scope.storeId,
      mode: scope.mode,
      external_id: input.externalId,
      name: input.name,
      description: input.description ?? null,
      image_url: input.imageUrl ?? null,
      price: input.price,
      cycle,
      trial_days: trialDays,
      status: 'ACTIVE',
      metadata: JSON.stringify(input.metadata ?? {}),
      created_at: now,
      updated_at: now,
      deleted_at: null,
    };
    await this.writing(() => this.products.insert(row));
    return presentProduct(row);
  }

  async list(scope: Scope, query: ListProductsQueryDto): Promise<Page<ProductView>> {
    const page = toPageRequest(query);
    const rows = await this.products.listPage(scope, page, { status: query.status, externalId: query.externalId });
    return toPage(rows, page, presentProduct);
  }

  async get(scope: Scope, query: GetProductQueryDto): Promise<ProductView> {
    const row =
      query.id !== undefined
        ? await this.products.findById(scope, query.id)
        : await this.products.findByExternalId(scope, query.externalId ?? '');
    if (!row || (query.id !== undefined && query.externalId !== undefined && row.external_id !== query.externalId)) {
      throw productNotFound();
    }
    return presentProduct(row);
  }

  async update(scope: Scope, input: UpdateProductDto): Promise<ProductView> {
    const current = await this.products.findById(scope, input.id);
    if (!current) throw productNotFound();
    const cycle = input.cycle !== undefined ? input.cycle : current.cycle;
    const trialDays = input.trialDays !== undefined ? input.trialDays : current.trial_days;
    if (trialDays !== null && cycle === null) throw trialNeedsCycle();
    const patch: ProductPatch = { updated_at: this.clock.nowIso(), cycle, trial_days: trialDays };
    if (input.externalId !== undefined) patch.external_id = input.externalId;
    if (input.name !== undefined) patch.name = input.name;
    if (input.price !== undefined) patch.price = input.price;
    if (input.description !== undefined) patch.description = input.description;
    if (input.imageUrl !== undefined) patch.image_url = input.imageUrl;
    if (input.status !== undefined) patch.status = input.status;
    if (input.metadata !== undefined) patch.metadata = JSON.stringify(input.metadata);
    await this.writing(() => this.products.update(scope, input.id, patch));
    return this.get(scope, { id: input.id });
  }

  async delete(scope: Scope, id: string): Promise<{ id: string; deleted: true }> {
    if (!(await this.products.softDelete(scope, id, this.clock.nowIso()))) throw productNotFound();
    return { id, deleted: true };
  }

  /** For charges: the referenced products as stored, deleted ones included. */
  findForCharge(scope: Scope, ids: string[], executor?: Executor): Promise<ProductsTable[]> {
    return this.products.findManyIncludingDeleted(scope, ids, executor);
  }

  private async writing(write: () => Promise<void>): Promise<void> {
    try {
      await write();
    } catch (error) {
      if (isUniqueViolation(error)) throw externalIdTaken();
      throw error;
    }
  }
}
