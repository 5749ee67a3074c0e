// The futures row the order-form tests trade against: BTCUSDT's fees, maintenance rate, step and
// caps as the venue lists them (GET /api/v1/symbols), one copy for every test of the form's math.
export const BTC_FUTURES = {
  taker_fee_rate: '0.0005',
  maker_fee_rate: '0.0002',
  maintenance_margin_rate: '0.004',
  max_qty: '1000',
  qty_step: '0.001',
  max_leverage: 125,
};
