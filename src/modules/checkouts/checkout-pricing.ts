import type { ChargeMethod, ProductsTable } from '../../database/database.types';
import { calculateFee, MAX_AMOUNT } from '../fees/fee-schedule';
import type { ChargeItem } from '../charges/charge.presenter';
import { amountTooLarge, itemProblem } from './checkouts.errors';

/**
 * Prices checkout items from the catalogue: each must be an ACTIVE one-off product of the store and
 * mode (deleted products are gone for new checkouts), and the copy of name and price is kept on the
 * checkout so later catalogue changes never alter it.
 */
export function priceItems(items: { productId: string; quantity: number }[], products: ProductsTable[]): { lines: ChargeItem[]; subtotal: number } {
  const byId = new Map(products.map((product) => [product.id, product]));
  const lines = items.map((item, index) => {
    const product = byId.get(item.productId);
    if (!product || product.deleted_at !== null) throw itemProblem(index, 'no such product in this store');
    if (product.status !== 'ACTIVE') throw itemProblem(index, 'product is INACTIVE');
    if (product.cycle !== null) throw itemProblem(index, 'product has a cycle: sell it with a subscription');
    return { productId: product.id, name: product.name, quantity: item.quantity, unitPrice: product.price };
  });
  const subtotal = lines.reduce((sum, line) => sum + line.unitPrice * line.quantity, 0);
  if (subtotal > MAX_AMOUNT) throw amountTooLarge();
  return { lines, subtotal };
}

/** Every offered method must be able to take the amount (card at 1x): AMOUNT_BELOW_MINIMUM otherwise. */
export function assertPayableByEveryMethod(amount: number, methods: readonly ChargeMethod[]): void {
  for (const method of methods) calculateFee(amount, method, 1);
}
