export {
  createMailer,
  type MailMessage,
  type Mailer,
  type MailerOptions,
  type SentMail,
} from './mailer.server';
