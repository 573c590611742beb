export {
  dropOrderJobs,
  enqueue,
  enqueueingPart,
  outboxBacklog,
  startOutboxWorker,
  type OutboxHandler,
  type OutboxJob,
  type OutboxWorker,
  type OutboxWorkerOptions,
} from './outbox.server';
export { claimRecurringRun } from './recurring.server';
