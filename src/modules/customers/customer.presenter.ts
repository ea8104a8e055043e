import { parseMetadata } from '../../common/validation/metadata';
import type { CustomersTable } from '../../database/database.types';
import type { CustomerView } from './dto/customer.dto';

export function presentCustomer(row: CustomersTable): CustomerView {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    cellphone: row.cellphone,
    taxId: row.tax_id,
    zipCode: row.zip_code,
    metadata: parseMetadata(row.metadata),
    devMode: row.mode === 'test',
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
