import { Injectable } from '@nestjs/common';
import type { Scope } from '../../common/auth/auth-context';
import { Clock } from '../../common/clock';
import { newId } from '../../common/ids';
import { Page, toPage, toPageRequest } from '../../common/pagination/pagination';
import { normalizeTaxId } from '../../common/validation/tax-id';
import { isUniqueViolation } from '../../database/database.service';
import type { CustomersTable } from '../../database/database.types';
import { customerNotFound, invalidTaxId, taxIdTaken } from './customers.errors';
import { CustomerPatch, CustomersRepository } from './customers.repository';
import { presentCustomer } from './customer.presenter';
import type { CreateCustomerDto, CustomerView, ListCustomersQueryDto, UpdateCustomerDto } from './dto/customer.dto';

export interface CreatedCustomer {
  customer: CustomerView;
  /** False when a customer with the same taxId already existed and is returned instead. */
  created: boolean;
}

@Injectable()
export class CustomersService {
  constructor(
    private readonly customers: CustomersRepository,
    private readonly clock: Clock,
  ) {}

  /** Creating with a taxId the store already knows returns that customer instead of a duplicate (API.md §8.1). */
  async create(scope: Scope, input: CreateCustomerDto): Promise<CreatedCustomer> {
    const taxId = taxIdOrNull(input.taxId);
    if (taxId !== null) {
      const existing = await this.customers.findByTaxId(scope, taxId);
      if (existing) return { customer: presentCustomer(existing), created: false };
    }
    const now = this.clock.nowIso();
    const row: CustomersTable = {
      id: newId('cust'),
      store_id: scope.storeId,
      mode: scope.mode,
      email: input.email,
      name: input.name ?? null,
      cellphone: input.cellphone ?? null,
      tax_id: taxId,
      zip_code: zipOrNull(input.zipCode),
      metadata: JSON.stringify(input.metadata ?? {}),
      created_at: now,
      updated_at: now,
      deleted_at: null,
    };
    try {
      await this.customers.insert(row);
    } catch (error) {
      // A concurrent create with the same taxId won the race: answer with its customer.
      if (taxId !== null && isUniqueViolation(error)) {
        const winner = await this.customers.findByTaxId(scope, taxId);
        if (winner) return { customer: presentCustomer(winner), created: false };
      }
      throw error;
    }
    return { customer: presentCustomer(row), created: true };
  }

  async list(scope: Scope, query: ListCustomersQueryDto): Promise<Page<CustomerView>> {
    const page = toPageRequest(query);
    const taxId = query.taxId === undefined ? undefined : (normalizeTaxId(query.taxId)?.value ?? query.taxId);
    return toPage(await this.customers.listPage(scope, page, { email: query.email, taxId }), page, presentCustomer);
  }

  async get(scope: Scope, id: string): Promise<CustomerView> {
    const row = await this.customers.findById(scope, id);
    if (!row) throw customerNotFound();
    return presentCustomer(row);
  }

  async update(scope: Scope, input: UpdateCustomerDto): Promise<CustomerView> {
    await this.get(scope, input.id);
    const patch: CustomerPatch = { updated_at: this.clock.nowIso() };
    if (input.email !== undefined) patch.email = input.email;
    if (input.name !== undefined) patch.name = input.name;
    if (input.cellphone !== undefined) patch.cellphone = input.cellphone;
    if (input.zipCode !== undefined) patch.zip_code = zipOrNull(input.zipCode);
    if (input.metadata !== undefined) patch.metadata = JSON.stringify(input.metadata);
    if (input.taxId !== undefined) {
      patch.tax_id = taxIdOrNull(input.taxId);
      const holder = patch.tax_id === null ? undefined : await this.customers.findByTaxId(scope, patch.tax_id);
      if (holder && holder.id !== input.id) throw taxIdTaken();
    }
    try {
      await this.customers.update(scope, input.id, patch);
    } catch (error) {
      if (isUniqueViolation(error)) throw taxIdTaken();
      throw error;
    }
    return this.get(scope, input.id);
  }

  async delete(scope: Scope, id: string): Promise<{ id: string; deleted: true }> {
    if (!(await this.customers.softDelete(scope, id, this.clock.nowIso()))) throw customerNotFound();
    return { id, deleted: true };
  }
}

function taxIdOrNull(input: string | null | undefined): string | null {
  if (input === undefined || input === null) return null;
  const normalized = normalizeTaxId(input);
  if (!normalized) throw invalidTaxId();
  return normalized.value;
}

const zipOrNull = (input: string | null | undefined): string | null =>
  input === undefined || input === null ? null : input.replace('-', '');
