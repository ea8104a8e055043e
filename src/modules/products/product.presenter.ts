import { parseMetadata } from '../../common/validation/metadata';
import type { ProductsTable } from '../../database/database.types';
import type { ProductView } from './dto/product.dto';

export function presentProduct(row: ProductsTable): ProductView {
  return {
    id: row.id,
    externalId: row.external_id,
    name: row.name,
    description: row.description,
    imageUrl: row.image_url,
    price: row.price,
    currency: 'BRL',
    cycle: row.cycle,
    trialDays: row.trial_days,
    status: row.status,
    metadata: parseMetadata(row.metadata),
    devMode: row.mode === 'test',
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
