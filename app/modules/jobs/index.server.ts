export {
  dropOrderJobs,
  enqueue,
  startOutboxWorker,
  type OutboxHandler,
  type OutboxWorker,
  type OutboxWorkerOptions,
} from './outbox.server';
