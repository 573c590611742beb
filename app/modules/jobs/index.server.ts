export {
  dropOrderJobs,
  enqueue,
  outboxBacklog,
  startOutboxWorker,
  type OutboxHandler,
  type OutboxWorker,
  type OutboxWorkerOptions,
} from './outbox.server';
export { claimRecurringRun } from './recurring.server';
