export {
  deleteAllAbandonedCheckouts,
  issueRestoreKey,
  listAbandonedCheckouts,
  recoveredSales,
  type AbandonedCheckoutRow,
} from './checkouts.server';
export { abandonedActionSchema } from './admin.server';
