export { MAIL_TEST_MESSAGES, sendTestEmail, type MailTestResult } from './mail-test.server';
export { createMailer, type MailMessage, type MailSending } from './mailer.server';
