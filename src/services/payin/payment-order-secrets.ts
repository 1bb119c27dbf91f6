/** AES-GCM associated data of an order's own callback secret (binds the ciphertext to its row). */
export function callbackSecretContext(orderPk: string): string {
  return `payment_order:${orderPk}:callback_secret`;
}
