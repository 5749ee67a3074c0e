// The order form's choices, named apart from its store (order-form-store.ts) so that the model
// (order-model.ts), which the store's helpers import, can name them without importing the store.
import type { OrderType } from '../../../../src-shared/enums.ts';

/** Open or Close (hedge mode's tabs; one-way mode opens and closes from Open). */
export type FormAction = 'open' | 'close';
export type FormType = OrderType;
/** The size typed as a quantity, or as a percentage of what can be opened. */
export type SizeMode = 'qty' | 'pct';
