export { createBling, blingRefusal, type BlingOptions } from './bling.server';
export {
  accessToken,
  beginAuthorization,
  connectionState,
  expireAccessToken,
  isConnected,
  saveAuthorization,
  takeAuthorizationState,
} from './connection.server';
export {
  ErpError,
  type Erp,
  type ErpCustomer,
  type ErpFailure,
  type ErpInvoice,
  type ErpOrderInput,
  type ErpOrderLine,
  type TokenSet,
} from './erp.server';
export {
  authorizedInvoiceKey,
  ERP_TOPICS,
  erpAlerts,
  findOrderIdByInvoice,
  getErpOrder,
  INVOICE_READ_DELAY_MS,
  lockErpOrder,
  queuePaidOrder,
  recordErpRefusal,
  recordErpSent,
  recordInvoice,
  requestErpInvoice,
  requestErpSend,
  requestInvoiceRetry,
  type ErpJob,
  type InvoiceRequest,
  type SendRequest,
} from './orders.server';
