import { Injectable } from '@nestjs/common';
import { DatabaseService, Executor } from '../../database/database.service';
import type { MerchantsTable } from '../../database/database.types';

@Injectable()
export class MerchantsRepository {
  constructor(private readonly database: DatabaseService) {}

  async insert(row: MerchantsTable, executor: Executor): Promise<void> {
    await executor.insertInto('merchants').values(row).execute();
  }

  findByEmail(email: string): Promise<MerchantsTable | undefined> {
    return this.database.db.selectFrom('merchants').selectAll().where('email', '=', email).executeTakeFirst();
  }

  findById(id: string): Promise<MerchantsTable | undefined> {
    return this.database.db.selectFrom('merchants').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async count(executor: Executor = this.database.db): Promise<number> {
    const row = await executor
      .selectFrom('merchants')
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow();
    return Number(row.total);
  }
}
