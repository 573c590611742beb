export { createMailer } from './mailer.server';
